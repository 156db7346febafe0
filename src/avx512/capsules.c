/* avx512/capsules.c - capsule sweeps (against spheres and a plane) for the avx512 backend */
#include "vec.h"
#include "../simd/capsules.h"
