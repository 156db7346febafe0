/* api.c - the public queries: validate the call, then run the active backend's kernel.
   Validation happens here, once per call, so kernels only compute and a rejected call
   writes nothing. */
#include "internal.h"

/* Every array present. Bitwise & rather than &&: one test instead of seven branches, on a
   path every call takes. */
static inline int spheres_ok(const toi_spheres *s)
{
    return s && ((s->x != NULL) & (s->y != NULL) & (s->z != NULL) & (s->vx != NULL) &
                 (s->vy != NULL) & (s->vz != NULL) & (s->r != NULL));
}

static inline int triangles_ok(const toi_triangles *t)
{
    return t && ((t->ax != NULL) & (t->ay != NULL) & (t->az != NULL) & (t->bx != NULL) &
                 (t->by != NULL) & (t->bz != NULL) & (t->cx != NULL) & (t->cy != NULL) &
                 (t->cz != NULL));
}

/* Common checks: known flags, the required output, and n = 0 (nothing to do). */
static ptrdiff_t precheck(size_t n, unsigned flags, const toi_hits *out)
{
    if (flags & ~TOI_FLAGS_ALL)
        return TOI_EINVAL;
    if (n == 0)
        return 0;
    if (!out || !out->t)
        return TOI_EINVAL;
    return 1;
}

static int indices_ok(size_t n, const uint32_t *idx, size_t limit)
{
    /* OR-reduce "out of range" without a branch per element: this runs on every call. */
    unsigned bad = 0;
    for (size_t k = 0; k < n; k++)
        bad |= (size_t)idx[k] >= limit;
    return !bad;
}

/* A pair list's index arrays: both given, every ia[k] < na and ib[k] < nb. */
static int pairs_ok(size_t n, const uint32_t *ia, size_t na, const uint32_t *ib, size_t nb)
{
    return ia && ib && indices_ok(n, ia, na) && indices_ok(n, ib, nb);
}

/* ---- runs ----
   Every query reaches its kernel in runs of at most TOI_RUN (2^30) queries (a table's run,
   when set, instead: the tests set it lower), its per-query arrays offset to the run's first
   query. The SIMD kernels keep query indices in 32 bits in their queues (a set's or mesh's
   winners waiting for the outputs beyond t, the boxes' live and rotating pairs, the capsule
   pairs that pass the reject), so a batch of 2^32 queries or more needs no care inside them.
   A query's result does not depend on the other queries of its call, so runs give the bits
   of one call. The first run passes the caller's structs as they are: nothing is copied for
   a batch of one run. */
static inline size_t run_max(const toi_kernels *k)
{
    return k->run ? k->run : TOI_RUN;
}

#define TOI_OFF_(f) (p->f ? p->f + i : NULL)

static const toi_spheres *at_spheres(toi_spheres *run, const toi_spheres *p, size_t i)
{
    *run = (toi_spheres){p->x + i,  p->y + i,  p->z + i, p->vx + i,
                         p->vy + i, p->vz + i, p->r + i};
    return run;
}

static const toi_triangles *at_triangles(toi_triangles *run, const toi_triangles *p, size_t i)
{
    *run = (toi_triangles){p->ax + i, p->ay + i, p->az + i, p->bx + i, p->by + i,
                           p->bz + i, p->cx + i, p->cy + i, p->cz + i};
    return run;
}

static const toi_capsules *at_capsules(toi_capsules *run, const toi_capsules *p, size_t i)
{
    *run = (toi_capsules){p->x0 + i, p->y0 + i, p->z0 + i, p->x1 + i, p->y1 + i,
                          p->z1 + i, p->vx + i, p->vy + i, p->vz + i, p->r + i};
    return run;
}

static const toi_boxes *at_boxes(toi_boxes *run, const toi_boxes *p, size_t i)
{
    *run = (toi_boxes){p->x + i,  p->y + i,  p->z + i,  p->vx + i, p->vy + i, p->vz + i,
                       p->qw + i, p->qx + i, p->qy + i, p->qz + i, p->hx + i, p->hy + i,
                       p->hz + i, TOI_OFF_(wx), TOI_OFF_(wy), TOI_OFF_(wz)};
    return run;
}

static const toi_motion *at_motion(toi_motion *run, const toi_motion *p, size_t i)
{
    *run = (toi_motion){p->x + i,  p->y + i,    p->z + i,    p->vx + i,  p->vy + i,
                        p->vz + i, TOI_OFF_(ux), TOI_OFF_(uy), TOI_OFF_(uz)};
    return run;
}

static const toi_hits *at_hits(toi_hits *run, const toi_hits *p, size_t i)
{
    *run = (toi_hits){p->t + i,        TOI_OFF_(nx),      TOI_OFF_(ny),    TOI_OFF_(nz),
                      TOI_OFF_(px),    TOI_OFF_(py),      TOI_OFF_(pz),    TOI_OFF_(depth),
                      TOI_OFF_(index), TOI_OFF_(feature), TOI_OFF_(t_exit)};
    return run;
}
#undef TOI_OFF_

/* Within TOI_RUNS: p (a toi_<kind> pointer) from the run's first query ri on; p itself for
   the first run, with nothing copied or initialised. */
#define TOI_AT(kind, p) (ri ? at_##kind(&(toi_##kind){0}, p, ri) : (p))

/* Returns the hits of the kernel call `call` (its count rn, its arrays through TOI_AT) over
   the runs of [0, n). */
#define TOI_RUNS(k, n, call)                                                                   \
    do {                                                                                       \
        const size_t run_ = run_max(k);                                                        \
        size_t hits_ = 0;                                                                      \
        for (size_t ri = 0, rn; ri < (n); ri += rn) {                                          \
            rn = (n) - ri < run_ ? (n) - ri : run_;                                            \
            hits_ += (call);                                                                   \
        }                                                                                      \
        return (ptrdiff_t)hits_;                                                               \
    } while (0)

ptrdiff_t toi_sweep_spheres_on(const toi_kernels *k, size_t n, const toi_spheres *a,
                               const toi_spheres *b, unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(a) || !spheres_ok(b))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->spheres(rn, TOI_AT(spheres, a), TOI_AT(spheres, b), flags,
                              TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_sphere_pairs_on(const toi_kernels *k, size_t npairs, const uint32_t *ia,
                                    const uint32_t *ib, size_t nbodies,
                                    const toi_spheres *bodies, unsigned flags,
                                    const toi_hits *out)
{
    ptrdiff_t pre = precheck(npairs, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(bodies) || !pairs_ok(npairs, ia, nbodies, ib, nbodies))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, npairs, k->sphere_pairs(rn, ia + ri, ib + ri, bodies, flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_spheres_plane_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                     const toi_plane *plane, unsigned flags,
                                     const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(s) || !plane)
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->spheres_plane(rn, TOI_AT(spheres, s), plane, flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_respond_on(const toi_kernels *k, size_t n, const toi_motion *m,
                         const toi_hits *hits, float restitution, float friction)
{
    /* written so that NaN fails each range test */
    if (!(restitution >= 0.0f && restitution <= 1.0f) || !(friction >= 0.0f && friction <= 1.0f))
        return TOI_EINVAL;
    if (n == 0)
        return 0;
    if (!m || !m->x || !m->y || !m->z || !m->vx || !m->vy || !m->vz)
        return TOI_EINVAL;
    /* the velocity is all three arrays or none */
    if ((m->ux != NULL) != (m->uy != NULL) || (m->ux != NULL) != (m->uz != NULL))
        return TOI_EINVAL;
    if (!hits || !hits->t || !hits->nx || !hits->ny || !hits->nz)
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->respond(rn, TOI_AT(motion, m), TOI_AT(hits, hits), restitution, friction));
}

ptrdiff_t toi_sweep_spheres_triangles_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                         const toi_triangles *tri, unsigned flags,
                                         const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(s) || !triangles_ok(tri))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->spheres_triangles(rn, TOI_AT(spheres, s), TOI_AT(triangles, tri), flags,
                                        TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_sphere_triangle_pairs_on(const toi_kernels *k, size_t npairs,
                                             const uint32_t *is, const uint32_t *it,
                                             size_t nspheres, const toi_spheres *s,
                                             size_t ntris, const toi_triangles *tri,
                                             unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(npairs, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(s) || !triangles_ok(tri) || !pairs_ok(npairs, is, nspheres, it, ntris))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, npairs,
             k->sphere_triangle_pairs(rn, is + ri, it + ri, s, tri, flags, TOI_AT(hits, out)));
}

/* A triangle set: ntris = 0 is valid (every query misses), and then tri may be NULL; at most
   UINT32_MAX - 1 triangles (index is a uint32_t: a larger set could not name its hit). */
static int set_ok(size_t ntris, const toi_triangles *tri)
{
    return ntris < UINT32_MAX && (ntris == 0 || triangles_ok(tri));
}

/* The set's arrays for the kernels: an empty set may come without them, and the kernels then
   see valid pointers they never read. */
static const toi_triangles *set_arrays(size_t ntris, const toi_triangles *tri)
{
    static const float none[1];
    static const toi_triangles empty = {none, none, none, none, none, none, none, none, none};
    return ntris ? tri : &empty;
}

/* The sphere set (set_ok, set_arrays). */
ptrdiff_t toi_sweep_spheres_triangle_set_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                            size_t ntris, const toi_triangles *tri,
                                            unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(s) || !set_ok(ntris, tri))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->spheres_triangle_set(rn, TOI_AT(spheres, s), ntris, set_arrays(ntris, tri),
                                           flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_spheres_mesh_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                    const toi_mesh *m, unsigned flags, const toi_hits *out,
                                    toi_cost *cost)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(s) || !m)
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->spheres_mesh(rn, TOI_AT(spheres, s), m, flags, TOI_AT(hits, out), cost));
}

static inline int capsules_ok(const toi_capsules *c)
{
    return c && ((c->x0 != NULL) & (c->y0 != NULL) & (c->z0 != NULL) & (c->x1 != NULL) &
                 (c->y1 != NULL) & (c->z1 != NULL) & (c->vx != NULL) & (c->vy != NULL) &
                 (c->vz != NULL) & (c->r != NULL));
}

ptrdiff_t toi_sweep_capsules_spheres_on(const toi_kernels *k, size_t n, const toi_capsules *c,
                                       const toi_spheres *s, unsigned flags,
                                       const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(c) || !spheres_ok(s))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->capsules_spheres(rn, TOI_AT(capsules, c), TOI_AT(spheres, s), flags,
                                       TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_capsules_plane_on(const toi_kernels *k, size_t n, const toi_capsules *c,
                                     const toi_plane *plane, unsigned flags,
                                     const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(c) || !plane)
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->capsules_plane(rn, TOI_AT(capsules, c), plane, flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_capsules_on(const toi_kernels *k, size_t n, const toi_capsules *a,
                                const toi_capsules *b, unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(a) || !capsules_ok(b))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->capsules(rn, TOI_AT(capsules, a), TOI_AT(capsules, b), flags,
                               TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_capsule_pairs_on(const toi_kernels *k, size_t npairs, const uint32_t *ia,
                                     const uint32_t *ib, size_t nbodies,
                                     const toi_capsules *bodies, unsigned flags,
                                     const toi_hits *out)
{
    ptrdiff_t pre = precheck(npairs, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(bodies) || !pairs_ok(npairs, ia, nbodies, ib, nbodies))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, npairs, k->capsule_pairs(rn, ia + ri, ib + ri, bodies, flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_capsules_triangles_on(const toi_kernels *k, size_t n,
                                          const toi_capsules *c, const toi_triangles *tri,
                                          unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(c) || !triangles_ok(tri))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->capsules_triangles(rn, TOI_AT(capsules, c), TOI_AT(triangles, tri), flags,
                                         TOI_AT(hits, out)));
}

/* As the sphere set (set_ok). */
ptrdiff_t toi_sweep_capsules_triangle_set_on(const toi_kernels *k, size_t n,
                                             const toi_capsules *c, size_t ntris,
                                             const toi_triangles *tri, unsigned flags,
                                             const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(c) || !set_ok(ntris, tri))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->capsules_triangle_set(rn, TOI_AT(capsules, c), ntris, set_arrays(ntris, tri),
                                            flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_capsules_mesh_on(const toi_kernels *k, size_t n, const toi_capsules *c,
                                     const toi_mesh *m, unsigned flags, const toi_hits *out,
                                     toi_cost *cost)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!capsules_ok(c) || !m)
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->capsules_mesh(rn, TOI_AT(capsules, c), m, flags, TOI_AT(hits, out), cost));
}

ptrdiff_t toi_sweep_spheres(size_t n, const toi_spheres *a, const toi_spheres *b,
                            unsigned flags, const toi_hits *out)
{
    return toi_sweep_spheres_on(toi_active_kernels(), n, a, b, flags, out);
}

ptrdiff_t toi_sweep_sphere_pairs(size_t npairs, const uint32_t *ia, const uint32_t *ib,
                                 size_t nbodies, const toi_spheres *bodies, unsigned flags,
                                 const toi_hits *out)
{
    return toi_sweep_sphere_pairs_on(toi_active_kernels(), npairs, ia, ib, nbodies, bodies,
                                     flags, out);
}

ptrdiff_t toi_sweep_spheres_plane(size_t n, const toi_spheres *s, const toi_plane *plane,
                                  unsigned flags, const toi_hits *out)
{
    return toi_sweep_spheres_plane_on(toi_active_kernels(), n, s, plane, flags, out);
}

ptrdiff_t toi_respond(size_t n, const toi_motion *m, const toi_hits *hits, float restitution,
                      float friction)
{
    return toi_respond_on(toi_active_kernels(), n, m, hits, restitution, friction);
}

ptrdiff_t toi_sweep_spheres_triangles(size_t n, const toi_spheres *s, const toi_triangles *tri,
                                      unsigned flags, const toi_hits *out)
{
    return toi_sweep_spheres_triangles_on(toi_active_kernels(), n, s, tri, flags, out);
}

ptrdiff_t toi_sweep_sphere_triangle_pairs(size_t npairs, const uint32_t *is, const uint32_t *it,
                                          size_t nspheres, const toi_spheres *s, size_t ntris,
                                          const toi_triangles *tri, unsigned flags,
                                          const toi_hits *out)
{
    return toi_sweep_sphere_triangle_pairs_on(toi_active_kernels(), npairs, is, it, nspheres, s,
                                              ntris, tri, flags, out);
}

ptrdiff_t toi_sweep_spheres_triangle_set(size_t n, const toi_spheres *s, size_t ntris,
                                         const toi_triangles *tri, unsigned flags,
                                         const toi_hits *out)
{
    return toi_sweep_spheres_triangle_set_on(toi_active_kernels(), n, s, ntris, tri, flags, out);
}

ptrdiff_t toi_sweep_spheres_mesh(size_t n, const toi_spheres *s, const toi_mesh *m,
                                 unsigned flags, const toi_hits *out, toi_cost *cost)
{
    return toi_sweep_spheres_mesh_on(toi_active_kernels(), n, s, m, flags, out, cost);
}

ptrdiff_t toi_sweep_capsules_spheres(size_t n, const toi_capsules *c, const toi_spheres *s,
                                     unsigned flags, const toi_hits *out)
{
    return toi_sweep_capsules_spheres_on(toi_active_kernels(), n, c, s, flags, out);
}

ptrdiff_t toi_sweep_capsules_plane(size_t n, const toi_capsules *c, const toi_plane *plane,
                                   unsigned flags, const toi_hits *out)
{
    return toi_sweep_capsules_plane_on(toi_active_kernels(), n, c, plane, flags, out);
}

ptrdiff_t toi_sweep_capsules(size_t n, const toi_capsules *a, const toi_capsules *b,
                             unsigned flags, const toi_hits *out)
{
    return toi_sweep_capsules_on(toi_active_kernels(), n, a, b, flags, out);
}

ptrdiff_t toi_sweep_capsule_pairs(size_t npairs, const uint32_t *ia, const uint32_t *ib,
                                  size_t nbodies, const toi_capsules *bodies, unsigned flags,
                                  const toi_hits *out)
{
    return toi_sweep_capsule_pairs_on(toi_active_kernels(), npairs, ia, ib, nbodies, bodies,
                                      flags, out);
}

ptrdiff_t toi_sweep_capsules_triangles(size_t n, const toi_capsules *c,
                                       const toi_triangles *tri, unsigned flags,
                                       const toi_hits *out)
{
    return toi_sweep_capsules_triangles_on(toi_active_kernels(), n, c, tri, flags, out);
}

ptrdiff_t toi_sweep_capsules_triangle_set(size_t n, const toi_capsules *c, size_t ntris,
                                          const toi_triangles *tri, unsigned flags,
                                          const toi_hits *out)
{
    return toi_sweep_capsules_triangle_set_on(toi_active_kernels(), n, c, ntris, tri, flags,
                                              out);
}

ptrdiff_t toi_sweep_capsules_mesh(size_t n, const toi_capsules *c, const toi_mesh *m,
                                  unsigned flags, const toi_hits *out, toi_cost *cost)
{
    return toi_sweep_capsules_mesh_on(toi_active_kernels(), n, c, m, flags, out, cost);
}

static inline int boxes_ok(const toi_boxes *b)
{
    if (!b || !((b->x != NULL) & (b->y != NULL) & (b->z != NULL) & (b->vx != NULL) &
                (b->vy != NULL) & (b->vz != NULL) & (b->qw != NULL) & (b->qx != NULL) &
                (b->qy != NULL) & (b->qz != NULL) & (b->hx != NULL) & (b->hy != NULL) &
                (b->hz != NULL)))
        return 0;
    /* the rotation is all three arrays or none */
    return (b->wx != NULL) == (b->wy != NULL) && (b->wx != NULL) == (b->wz != NULL);
}

ptrdiff_t toi_sweep_boxes_on(const toi_kernels *k, size_t n, const toi_boxes *a,
                             const toi_boxes *b, unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!boxes_ok(a) || !boxes_ok(b))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, n, k->boxes(rn, TOI_AT(boxes, a), TOI_AT(boxes, b), flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_box_pairs_on(const toi_kernels *k, size_t npairs, const uint32_t *ia,
                                 const uint32_t *ib, size_t nbodies, const toi_boxes *bodies,
                                 unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(npairs, flags, out);
    if (pre <= 0)
        return pre;
    if (!boxes_ok(bodies) || !pairs_ok(npairs, ia, nbodies, ib, nbodies))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    TOI_RUNS(k, npairs, k->box_pairs(rn, ia + ri, ib + ri, bodies, flags, TOI_AT(hits, out)));
}

ptrdiff_t toi_sweep_boxes(size_t n, const toi_boxes *a, const toi_boxes *b, unsigned flags,
                          const toi_hits *out)
{
    return toi_sweep_boxes_on(toi_active_kernels(), n, a, b, flags, out);
}

ptrdiff_t toi_sweep_box_pairs(size_t npairs, const uint32_t *ia, const uint32_t *ib,
                              size_t nbodies, const toi_boxes *bodies, unsigned flags,
                              const toi_hits *out)
{
    return toi_sweep_box_pairs_on(toi_active_kernels(), npairs, ia, ib, nbodies, bodies, flags,
                                  out);
}

const char *toi_strerror(int code)
{
    switch (code) {
    case TOI_OK: return "success";
    case TOI_EINVAL: return "invalid argument (NULL required pointer, unknown flag, index or parameter out of range)";
    case TOI_ENOTSUP: return "not supported (backend not compiled in or not supported by this CPU)";
    }
    return code > 0 ? "success (number of hits)" : "unknown error";
}

const char *toi_version(void)
{
    return TOI_VERSION_STRING;
}
