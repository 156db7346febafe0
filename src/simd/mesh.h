/* simd/mesh.h - sphere-mesh sweep kernel body, written once over the vector layer: each
   sphere down the mesh's hierarchy (simd/mesh_walk.h) and a leaf's triangles as one (or, at
   4 lanes, two) kernel steps of the set kernel's (simd/tri_sweep.h). Included by
   src/<isa>/mesh.c after that backend's vec.h. */
#include "mesh_walk.h"
#include "tri_sweep.h"

typedef struct sphere_leaf_ctx {
    v3 p0, vin;
    vf rin;
    vm all_overlaps, cull_on;
    float svx, svy, svz;
} sphere_leaf_ctx;

/* A leaf's triangles VW at a time: the set scan's box and plane tests against the best time
   so far, then the kernel on the lanes left. */
static void sphere_leaf(const void *ctx, const toi_mesh *m, uint32_t ref, uint32_t cnt,
                        toi_mesh_best *b)
{
    const sphere_leaf_ctx *c = ctx;
    for (uint32_t j = 0; j < cnt; j += VW) {
        vf Tv[9];
        vm lane_ok = mesh_leaf_load(m, ref, cnt, j, Tv);
        v3 Vr[3];
        vf size = tri_relative(c->p0, c->vin, c->rin, Tv, Vr);
        const float tb = b->t < 1.0f ? b->t : 1.0f;
        vm live = tri_box_live(Vr, size, c->rin, tb, c->svx, c->svy, c->svz, NULL, lane_ok);
        if (mbits(live))
            live = tri_plane_live(Vr, size, c->rin, tb, c->svx, c->svy, c->svz, NULL, live);
        if (!mbits(live))
            continue;
        vres r;
        vf feat = vset((float)TOI_FEATURE_NONE);
        vm hit = tri_sweep_vec(c->p0, c->vin, c->rin, Tv, Vr, size, live, c->all_overlaps,
                               c->cull_on, 0, &r, &feat);
        mesh_leaf_offer(m, ref, cnt, j, hit, r.t, b);
    }
}

/* Sphere i's path and leaf context; 0 when it walks no mesh (mesh.h, toi_mesh_sphere_ok). */
static inline int sphere_mesh_begin(const mesh_batch *Q, size_t i, toi_mesh_ray *q, void *ctx)
{
    const toi_spheres *S = Q->in;
    const float sx = S->x[i], sy = S->y[i], sz = S->z[i];
    const float svx = S->vx[i], svy = S->vy[i], svz = S->vz[i], sr = S->r[i];
    *(sphere_leaf_ctx *)ctx = (sphere_leaf_ctx){{vset(sx), vset(sy), vset(sz)},
                                                {vset(svx), vset(svy), vset(svz)},
                                                vset(sr), Q->all_overlaps, Q->cull_on,
                                                svx, svy, svz};
    if (!toi_mesh_sphere_ok(sx, sy, sz, svx, svy, svz, sr))
        return 0;
    *q = toi_mesh_ray_make(sx, sy, sz, svx, svy, svz, sr);
    return 1;
}

size_t TOI_FN(sweep_spheres_mesh)(size_t n, const toi_spheres *S, const toi_mesh *m,
                                  unsigned flags, const toi_hits *out, toi_cost *cost)
{
    win_queue wq;
    const mesh_batch Q = mesh_batch_make(S, m, flags, out, &wq, sphere_win_flush);
    sphere_leaf_ctx ctx[TOI_MESH_INFLIGHT];
    return vdone(mesh_walk_batch(n, &Q, 0, ctx, sizeof ctx[0], sphere_mesh_begin, sphere_leaf,
                                 cost));
}
