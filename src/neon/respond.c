/* neon/respond.c - collision response for the neon backend */
#include "vec.h"
#include "../simd/respond.h"
