/* neon/capsules.c - capsule sweeps (against spheres and a plane) for the neon backend */
#include "vec.h"
#include "../simd/capsules.h"
