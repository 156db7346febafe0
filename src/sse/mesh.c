/* sse/mesh.c - sphere-mesh sweeps for the sse backend */
#include "vec.h"
#include "../simd/mesh.h"
