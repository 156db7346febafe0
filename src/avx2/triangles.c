/* avx2/triangles.c - sphere-triangle sweeps (pairs, pair lists, sets) for the avx2 backend */
#include "vec.h"
#include "../simd/triangles.h"
