/* avx512/triangles.c - sphere-triangle sweeps (pairs, pair lists, sets) for the avx512 backend */
#include "vec.h"
#include "../simd/triangles.h"
