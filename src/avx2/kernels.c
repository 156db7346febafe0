/* avx2/kernels.c - the avx2 backend's kernel table */
#include "vec.h"
#define TOI_BACKEND_ID TOI_BACKEND_AVX2
#include "../simd/kernels.h"
