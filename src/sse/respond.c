/* sse/respond.c - collision response for the sse backend */
#include "vec.h"
#include "../simd/respond.h"
