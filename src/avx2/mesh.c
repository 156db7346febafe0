/* avx2/mesh.c - sphere-mesh sweeps for the avx2 backend */
#include "vec.h"
#include "../simd/mesh.h"
