/* sse/triangles.c - sphere-triangle sweeps (pairs, pair lists, sets) for the sse backend */
#include "vec.h"
#include "../simd/triangles.h"
