/* neon/plane.c - sphere-plane sweep for the neon backend */
#include "vec.h"
#include "../simd/plane.h"
