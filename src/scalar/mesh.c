/* scalar/mesh.c - reference sphere-mesh sweep: each sphere down the mesh's hierarchy, one
   child box and one triangle at a time (plain C) */
#include "mesh_walk.h"
#include "tri_sweep.h"

/* The node test of child k (mesh.h gives its definition and why it never rejects a box
   holding a triangle the set query could hit first). t_in: when the path enters the grown
   box. */
static inline int child_test(const toi_mesh_ray *q, const toi_mesh_node *nd, int k, float tb,
                             float *t_in)
{
    const float p[3] = {q->px, q->py, q->pz}, inv[3] = {q->ix, q->iy, q->iz};
    const int neg[3] = {q->negx, q->negy, q->negz};
    float L[3], H[3], e[3];
    int nonempty = 1;
    for (int a = 0; a < 3; a++) {
        float ql = (float)nd->q[a][k], qh = (float)nd->q[3 + a][k];
        nonempty &= ql <= qh;
        L[a] = (nd->org[a] + ql * nd->scl[a]) - p[a];
        H[a] = (nd->org[a] + qh * nd->scl[a]) - p[a];
        e[a] = fabsf(L[a]) > fabsf(H[a]) ? fabsf(L[a]) : fabsf(H[a]);
        L[a] = L[a] - q->elo[a]; /* a capsule's stretch (mesh.h); a sphere's is 0 */
        H[a] = H[a] - q->ehi[a];
    }
    float sn = 3.0f * ((e[0] + e[1]) + e[2]) + q->base;
    float g = q->r + TOI_BOX_MARGIN * sn;
    /* entering and leaving each slab of the grown box, x then y then z */
    float ti = 0.0f, to = tb;
    for (int a = 0; a < 3; a++) {
        float ta = (L[a] - g) * inv[a], tb_ = (H[a] + g) * inv[a];
        float tin = neg[a] ? tb_ : ta;
        ti = tin > ti ? tin : ti;
    }
    for (int a = 0; a < 3; a++) {
        float ta = (L[a] - g) * inv[a], tb_ = (H[a] + g) * inv[a];
        float tout = neg[a] ? ta : tb_;
        to = tout < to ? tout : to;
    }
    *t_in = ti;
    return nonempty & (ti <= to);
}

/* A depth-first descent, the child entered first visited first, skipping any child entered
   after the best time so far; in a leaf the query offers every triangle it hits; the earliest
   hit wins, the lowest index on equal times, as in the set query - and only boxes that hold
   no triangle able to hit by then are skipped, so the winner is the set query's whatever the
   order of the visit. */
void toi_scalar_mesh_walk(const toi_mesh_ray *q, const toi_mesh *m, toi_scalar_mesh_leaf leaf,
                          const void *ctx, toi_mesh_best *b, uint64_t *nv, uint64_t *np)
{
    toi_mesh_entry stack[TOI_MESH_STACK];
    toi_mesh_entry cur = {0, TOI_MESH_INNER, 0.0f};
    size_t sp = 0;
    for (;;) {
        if (cur.count == TOI_MESH_INNER) {
            const toi_mesh_node *nd = &m->nodes[cur.ref];
            float tb = b->t < 1.0f ? b->t : 1.0f, t_in[TOI_MESH_W];
            unsigned hit = 0;
            for (int k = 0; k < nd->nchild; k++)
                hit |= (unsigned)child_test(q, nd, k, tb, &t_in[k]) << k;
            *nv += nd->nchild;
            if (toi_mesh_descend(stack, &sp, nd, hit, t_in, &cur))
                continue;
        } else {
            *np += cur.count;
            leaf(ctx, m, cur.ref, cur.count, b);
        }
        if (!toi_mesh_pop(stack, &sp, b->t, &cur))
            break;
    }
}

typedef struct sphere_leaf_ctx {
    sphere S;
    unsigned flags;
} sphere_leaf_ctx;

/* A sphere's leaf: sweep_triangle with tmax = best may leave out a triangle that cannot win. */
static void sphere_leaf(const void *ctx, const toi_mesh *m, uint32_t ref, uint32_t cnt,
                        toi_mesh_best *b)
{
    const sphere_leaf_ctx *c = ctx;
    for (uint32_t j = 0; j < cnt; j++) {
        triangle T = toi_mesh_triangle(m, ref, cnt, j);
        toi_result r;
        uint8_t feat;
        r.t = TOI_NO_HIT;
        sweep_triangle(c->S, T, c->flags, 0, b->t, &r, &feat);
        toi_mesh_offer(m, ref, cnt, j, r.t, b);
    }
}

size_t toi_scalar_sweep_spheres_mesh(size_t n, const toi_spheres *s, const toi_mesh *m,
                                     unsigned flags, const toi_hits *out, toi_cost *cost)
{
    uint64_t nv = 0, np = 0;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        sphere_leaf_ctx c = {load_sphere(s, i), flags};
        const sphere S = c.S;
        toi_mesh_best b = {TOI_NO_HIT, UINT32_MAX, 0, 0, 0};
        if (toi_mesh_sphere_ok(S.p.x, S.p.y, S.p.z, S.v.x, S.v.y, S.v.z, S.r)) {
            const toi_mesh_ray q =
                toi_mesh_ray_make(S.p.x, S.p.y, S.p.z, S.v.x, S.v.y, S.v.z, S.r);
            toi_scalar_mesh_walk(&q, m, sphere_leaf, &c, &b, &nv, &np);
        }
        hits += store_winner(S, toi_mesh_best_triangle(m, &b), b.win, flags, out, i);
    }
    if (cost) {
        cost->nv += nv;
        cost->np += np;
    }
    return hits;
}
