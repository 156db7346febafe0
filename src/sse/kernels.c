/* sse/kernels.c - the sse backend's kernel table */
#include "vec.h"
#define TOI_BACKEND_ID TOI_BACKEND_SSE
#include "../simd/kernels.h"
