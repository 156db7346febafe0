/* scalar/mesh.c - reference sphere-mesh sweep: each sphere down the mesh's hierarchy, one
   child box and one triangle at a time (plain C) */
#include "../mesh.h"
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

/* Each sphere: a depth-first descent, the child entered first visited first, skipping any
   child entered after the best time so far; in a leaf every triangle is asked for a hit at
   or before it (sweep_triangle with tmax = best may leave out one that cannot be); the
   earliest hit wins, the lowest index on equal times, as in the set query - and only boxes
   that hold no triangle able to hit by then are skipped, so the winner is the set query's
   whatever the order of the visit. */
size_t toi_scalar_sweep_spheres_mesh(size_t n, const toi_spheres *s, const toi_mesh *m,
                                     unsigned flags, const toi_hits *out, toi_cost *cost)
{
    const triangle none = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    toi_mesh_entry stack[TOI_MESH_STACK];
    uint64_t nv = 0, np = 0;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        sphere S = load_sphere(s, i);
        float best = TOI_NO_HIT;
        uint32_t win = UINT32_MAX;
        triangle W = none;
        if (toi_mesh_sphere_ok(S.p.x, S.p.y, S.p.z, S.v.x, S.v.y, S.v.z, S.r)) {
            const toi_mesh_ray q =
                toi_mesh_ray_make(S.p.x, S.p.y, S.p.z, S.v.x, S.v.y, S.v.z, S.r);
            toi_mesh_entry cur = {0, TOI_MESH_INNER, 0.0f};
            size_t sp = 0;
            for (;;) {
                if (cur.count == TOI_MESH_INNER) {
                    const toi_mesh_node *nd = &m->nodes[cur.ref];
                    toi_mesh_prefetch_children(m, nd);
                    float tb = best < 1.0f ? best : 1.0f, t_in[TOI_MESH_W];
                    unsigned hit = 0;
                    for (int k = 0; k < nd->nchild; k++)
                        hit |= (unsigned)child_test(&q, nd, k, tb, &t_in[k]) << k;
                    nv += nd->nchild;
                    if (toi_mesh_descend(stack, &sp, nd, hit, t_in, &cur))
                        continue;
                } else {
                    np += cur.count;
                    for (uint32_t j = 0; j < cur.count; j++) {
                        float v[9];
                        for (int k = 0; k < 9; k++)
                            v[k] = toi_mesh_row(m, cur.ref, cur.count, k)[j];
                        triangle T = {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]}};
                        toi_result r;
                        uint8_t feat;
                        r.t = TOI_NO_HIT;
                        sweep_triangle(S, T, flags, 0, best, &r, &feat);
                        uint32_t idx = toi_mesh_index(m, cur.ref, cur.count, j);
                        if (r.t <= 1.0f && (r.t < best || (r.t == best && idx < win))) {
                            best = r.t;
                            win = idx;
                            W = T;
                        }
                    }
                }
                if (!toi_mesh_pop(stack, &sp, best, &cur))
                    break;
            }
        }
        hits += store_winner(S, W, win, flags, out, i);
    }
    if (cost) {
        cost->nv += nv;
        cost->np += np;
    }
    return hits;
}
