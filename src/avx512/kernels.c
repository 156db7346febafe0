/* avx512/kernels.c - the avx512 backend's kernel table */
#include "vec.h"
#define TOI_BACKEND_ID TOI_BACKEND_AVX512
#include "../simd/kernels.h"
