/* scalar/mesh_walk.h - the reference mesh traversal, shared by the sphere and capsule mesh
   sweeps: the walk is the same, only the query in a leaf differs */
#ifndef TOI_SCALAR_MESH_WALK_H
#define TOI_SCALAR_MESH_WALK_H

#include "../mesh.h"
#include "tri_sweep.h"

/* The leaf's query: offer each triangle of the leaf (ref, cnt) that the query hits to *b
   (toi_mesh_offer); ctx is the walk's caller's. */
typedef void (*toi_scalar_mesh_leaf)(const void *ctx, const toi_mesh *m, uint32_t ref,
                                     uint32_t cnt, toi_mesh_best *b);

/* Walk m for the query whose path is q: b starts as a miss and ends as the winner. */
void toi_scalar_mesh_walk(const toi_mesh_ray *q, const toi_mesh *m, toi_scalar_mesh_leaf leaf,
                          const void *ctx, toi_mesh_best *b, uint64_t *nv, uint64_t *np);

/* Triangle j of the leaf (ref, cnt). */
static inline triangle toi_mesh_triangle(const toi_mesh *m, uint32_t ref, uint32_t cnt,
                                         uint32_t j)
{
    float v[9];
    for (int k = 0; k < 9; k++)
        v[k] = toi_mesh_row(m, ref, cnt, k)[j];
    return (triangle){{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]}};
}

/* The winner's triangle (all zero when there is none). */
static inline triangle toi_mesh_best_triangle(const toi_mesh *m, const toi_mesh_best *b)
{
    const triangle none = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    return b->win != UINT32_MAX ? toi_mesh_triangle(m, b->ref, b->cnt, b->j) : none;
}

#endif /* TOI_SCALAR_MESH_WALK_H */
