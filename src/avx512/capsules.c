/* avx512/capsules.c - capsule sweeps for the avx512 backend: the kernel bodies of
   simd/capsules.h over the 16-lane layer, the mesh query included. (Its leaves hold at most 8
   triangles, but the mesh walk packs the triangles its walks keep into whole vectors,
   mesh_walk_packed, so the 16-lane kernel runs full.) */
#include "vec.h"
#include "../simd/capsules.h"
