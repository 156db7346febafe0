/* avx512/boxes.c - oriented-box sweeps (pairs and pair lists) for the avx512 backend */
#include "vec.h"
#include "../simd/boxes.h"
