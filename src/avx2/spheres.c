/* avx2/spheres.c - sphere-sphere sweeps (pairs and pair lists) for the avx2 backend */
#include "vec.h"
#include "../simd/spheres.h"
