/* avx512/mesh.c - sphere-mesh sweeps for the avx512 backend */
#include "vec.h"
#include "../simd/mesh.h"
