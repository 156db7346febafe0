/* avx512/spheres.c - sphere-sphere sweeps (pairs and pair lists) for the avx512 backend */
#include "vec.h"
#include "../simd/spheres.h"
