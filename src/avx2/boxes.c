/* avx2/boxes.c - oriented-box sweeps (pairs and pair lists) for the avx2 backend */
#include "vec.h"
#include "../simd/boxes.h"
