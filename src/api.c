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

ptrdiff_t toi_sweep_spheres_on(const toi_kernels *k, size_t n, const toi_spheres *a,
                               const toi_spheres *b, unsigned flags, const toi_hits *out)
{
    ptrdiff_t pre = precheck(n, flags, out);
    if (pre <= 0)
        return pre;
    if (!spheres_ok(a) || !spheres_ok(b))
        return TOI_EINVAL;
    toi_note_backend(k->id);
    return (ptrdiff_t)k->spheres(n, a, b, flags, out);
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
    return (ptrdiff_t)k->sphere_pairs(npairs, ia, ib, bodies, flags, out);
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
    return (ptrdiff_t)k->spheres_plane(n, s, plane, flags, out);
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
    return (ptrdiff_t)k->respond(n, m, hits, restitution, friction);
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
    return (ptrdiff_t)k->spheres_triangles(n, s, tri, flags, out);
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
    return (ptrdiff_t)k->sphere_triangle_pairs(npairs, is, it, s, tri, flags, out);
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
    return (ptrdiff_t)k->spheres_triangle_set(n, s, ntris, set_arrays(ntris, tri), flags, out);
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
    return (ptrdiff_t)k->spheres_mesh(n, s, m, flags, out, cost);
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
    return (ptrdiff_t)k->capsules_spheres(n, c, s, flags, out);
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
    return (ptrdiff_t)k->capsules_plane(n, c, plane, flags, out);
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
    return (ptrdiff_t)k->capsules(n, a, b, flags, out);
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
    return (ptrdiff_t)k->capsule_pairs(npairs, ia, ib, bodies, flags, out);
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
    return (ptrdiff_t)k->capsules_triangles(n, c, tri, flags, out);
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
    return (ptrdiff_t)k->capsules_triangle_set(n, c, ntris, set_arrays(ntris, tri), flags,
                                               out);
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
    return (ptrdiff_t)k->capsules_mesh(n, c, m, flags, out, cost);
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
    return (ptrdiff_t)k->boxes(n, a, b, flags, out);
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
    return (ptrdiff_t)k->box_pairs(npairs, ia, ib, bodies, flags, out);
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
