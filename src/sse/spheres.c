/* sse/spheres.c - sphere-sphere sweeps (pairs and pair lists) for the sse backend */
#include "vec.h"
#include "../simd/spheres.h"
