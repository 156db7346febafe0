/* sse/boxes.c - oriented-box sweeps (pairs and pair lists) for the sse backend */
#include "vec.h"
#include "../simd/boxes.h"
