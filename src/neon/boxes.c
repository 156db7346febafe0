/* neon/boxes.c - oriented-box sweeps (pairs and pair lists) for the neon backend */
#include "vec.h"
#include "../simd/boxes.h"
