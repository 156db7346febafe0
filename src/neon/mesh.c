/* neon/mesh.c - sphere-mesh sweeps for the neon backend */
#include "vec.h"
#include "../simd/mesh.h"
