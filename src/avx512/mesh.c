/* avx512/mesh.c - sphere-mesh sweeps for the avx512 backend: the avx2 kernel. A mesh's nodes
   and leaves are 8 wide (one layout for every backend), so 16-lane vectors would leave half
   their lanes idle on every node and leaf step, and on CPUs that split 512-bit operations
   in two (Zen 4) they also lengthen each step's dependency chain: the 256-bit kernel was
   faster (the particle example: 40 against 33 steps a second). Bit-identical either way. */
#include "vec.h"
#include "../simd/common.h"

size_t toi_avx2_sweep_spheres_mesh(size_t n, const toi_spheres *s, const toi_mesh *m,
                                   unsigned flags, const toi_hits *out, toi_cost *cost);

size_t TOI_FN(sweep_spheres_mesh)(size_t n, const toi_spheres *s, const toi_mesh *m,
                                  unsigned flags, const toi_hits *out, toi_cost *cost)
{
    return toi_avx2_sweep_spheres_mesh(n, s, m, flags, out, cost);
}
