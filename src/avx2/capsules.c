/* avx2/capsules.c - capsule sweeps (against spheres and a plane) for the avx2 backend */
#include "vec.h"
#include "../simd/capsules.h"
