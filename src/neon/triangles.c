/* neon/triangles.c - sphere-triangle sweeps (pairs, pair lists, sets) for the neon backend */
#include "vec.h"
#include "../simd/triangles.h"
