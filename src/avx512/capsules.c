/* avx512/capsules.c - capsule sweeps for the avx512 backend. The mesh query is the avx2
   kernel, as the sphere mesh query is (avx512/mesh.c): a mesh's leaves hold at most 8
   triangles, so 16-lane vectors run half empty on every leaf, and the 16-lane capsule mesh
   kernel was mostly the slower (Zen 5: 1,016 against 955 ns per capsule at 10^6 triangles; a
   shared Intel Xeon with AVX-512: from 3 % faster to 11 % slower by the fastest of repeated
   runs, about that machine's noise). Bit-identical either way. */
#include "vec.h"
#define TOI_CAPSULE_MESH_ELSEWHERE
#include "../simd/capsules.h"

size_t toi_avx2_sweep_capsules_mesh(size_t n, const toi_capsules *c, const toi_mesh *m,
                                    unsigned flags, const toi_hits *out, toi_cost *cost);

size_t TOI_FN(sweep_capsules_mesh)(size_t n, const toi_capsules *c, const toi_mesh *m,
                                   unsigned flags, const toi_hits *out, toi_cost *cost)
{
    return toi_avx2_sweep_capsules_mesh(n, c, m, flags, out, cost);
}
