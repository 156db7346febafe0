/* scalar/mesh_walk.h - the reference mesh traversal, shared by the sphere and capsule mesh
   sweeps: the walk is the same, only the query in a leaf differs */
#ifndef TOI_SCALAR_MESH_WALK_H
#define TOI_SCALAR_MESH_WALK_H

#include "../mesh.h"

/* The leaf's query: offer each triangle of the leaf (ref, cnt) that the query hits to *b
   (toi_mesh_offer); ctx is the walk's caller's. */
typedef void (*toi_scalar_mesh_leaf)(const void *ctx, const toi_mesh *m, uint32_t ref,
                                     uint32_t cnt, toi_mesh_best *b);

/* Walk m for the query whose path is q: b starts as a miss and ends as the winner. */
void toi_scalar_mesh_walk(const toi_mesh_ray *q, const toi_mesh *m, toi_scalar_mesh_leaf leaf,
                          const void *ctx, toi_mesh_best *b, uint64_t *nv, uint64_t *np);

/* Row c (0..8) of the winner's triangle. */
static inline float toi_mesh_best_row(const toi_mesh *m, const toi_mesh_best *b, int c)
{
    return toi_mesh_row(m, b->ref, b->cnt, c)[b->j];
}

#endif /* TOI_SCALAR_MESH_WALK_H */
