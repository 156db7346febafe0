/* avx2/plane.c - sphere-plane sweep for the avx2 backend */
#include "vec.h"
#include "../simd/plane.h"
