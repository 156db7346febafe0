/* neon/spheres.c - sphere-sphere sweeps (pairs and pair lists) for the neon backend */
#include "vec.h"
#include "../simd/spheres.h"
