/* neon/kernels.c - the neon backend's kernel table */
#include "vec.h"
#define TOI_BACKEND_ID TOI_BACKEND_NEON
#include "../simd/kernels.h"
