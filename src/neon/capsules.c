/* neon/capsules.c - capsule sweeps (against spheres, a plane, capsules, triangles, triangle sets
   and meshes) for the neon backend: simd/capsules.h over this backend's vector layer */
#include "vec.h"
#include "../simd/capsules.h"
