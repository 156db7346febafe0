/* sse/capsules.c - capsule sweeps (against spheres and a plane) for the sse backend */
#include "vec.h"
#include "../simd/capsules.h"
