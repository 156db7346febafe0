/* avx512/respond.c - collision response for the avx512 backend */
#include "vec.h"
#include "../simd/respond.h"
