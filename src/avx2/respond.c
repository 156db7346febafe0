/* avx2/respond.c - collision response for the avx2 backend */
#include "vec.h"
#include "../simd/respond.h"
