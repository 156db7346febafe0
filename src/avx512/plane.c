/* avx512/plane.c - sphere-plane sweep for the avx512 backend */
#include "vec.h"
#include "../simd/plane.h"
