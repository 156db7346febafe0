/* sse/plane.c - sphere-plane sweep for the sse backend */
#include "vec.h"
#include "../simd/plane.h"
