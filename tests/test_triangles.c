/* test_triangles.c - group 1 for the triangle queries: hand-computed contract cases on every
   backend, each run through all three queries (pairs, pair lists, one-triangle sets), then
   sets (ties, every size 0 to 3 * T_MAXW + 1, skipped non-finite triangles), batch sizes and
   alignment, optional outputs, and bad calls. */
#include "test.h"

#include <math.h>
#include <stdlib.h>

#define NANF __builtin_nanf("")
#define S2 0.70710678118654752f /* 1 / sqrt(2) */
#define S3 0.57735026918962576f /* 1 / sqrt(3) */

static int near(float got, float want)
{
    if (isinf(want))
        return got == want;
    return fabsf(got - want) <= 2e-6f * (fabsf(want) > 1 ? fabsf(want) : 1);
}

/* feat: a mask of the features accepted (1 << feature); 0 for a miss. */
typedef struct texpect {
    int hit;
    float t, n[3], p[3], depth;
    unsigned feat;
} texpect;

#define F(x) (1u << (x))
#define FACE F(TOI_FEATURE_FACE)
#define EAB F(TOI_FEATURE_EDGE_AB)
#define EBC F(TOI_FEATURE_EDGE_BC)
#define ECA F(TOI_FEATURE_EDGE_CA)
#define VA F(TOI_FEATURE_VERTEX_A)
#define VB F(TOI_FEATURE_VERTEX_B)
#define VC F(TOI_FEATURE_VERTEX_C)

typedef struct tcase {
    const char *name;
    float s[7], t[9]; /* sphere x y z vx vy vz r; triangle a b c */
    unsigned flags;
    texpect e;
} tcase;

#define TRI {0, 0, 0, 2, 0, 0, 0, 2, 0} /* z = 0, front normal +z */
#define BIG 1e5f

static const tcase cases[] = {
    {"face from the front", {0.5f, 0.5f, 5, 0, 0, -10, 1}, TRI, 0,
     {1, 0.4f, {0, 0, 1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"face from the back (two-sided)", {0.5f, 0.5f, -5, 0, 0, 10, 1}, TRI, 0,
     {1, 0.4f, {0, 0, -1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"face from the back, culled", {0.5f, 0.5f, -5, 0, 0, 10, 1}, TRI, TOI_CULL_BACKFACES,
     {0}},
    {"face from the front, culling on", {0.5f, 0.5f, 5, 0, 0, -10, 1}, TRI,
     TOI_CULL_BACKFACES, {1, 0.4f, {0, 0, 1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"edge-on motion, culled (N.v = 0)", {1, -5, 0, 0, 10, 0, 1}, TRI, TOI_CULL_BACKFACES, {0}},
    {"edge AB", {1, -5, 0, 0, 10, 0, 1}, TRI, 0, {1, 0.4f, {0, -1, 0}, {1, 0, 0}, 0, EAB}},
    {"edge AB from above and below", {1, -3 * 0.6f - 0.6f, 3 * 0.8f + 0.8f, 0, 6, -8, 1}, TRI,
     0, {1, 0.3f, {0, -0.6f, 0.8f}, {1, 0, 0}, 0, EAB}},
    {"edge BC", {1 + 5 * S2, 1 + 5 * S2, 0, -10 * S2, -10 * S2, 0, 1}, TRI, 0,
     {1, 0.4f, {S2, S2, 0}, {1, 1, 0}, 0, EBC}},
    {"edge CA", {-5, 1, 0, 10, 0, 0, 1}, TRI, 0, {1, 0.4f, {-1, 0, 0}, {0, 1, 0}, 0, ECA}},
    {"vertex A", {-5 * S3, -5 * S3, 5 * S3, 10 * S3, 10 * S3, -10 * S3, 1}, TRI, 0,
     {1, 0.4f, {-S3, -S3, S3}, {0, 0, 0}, 0, VA}},
    {"vertex B", {2 + 5 * S2, -5 * S2, 0, -10 * S2, 10 * S2, 0, 1}, TRI, 0,
     {1, 0.4f, {S2, -S2, 0}, {2, 0, 0}, 0, VB}},
    {"vertex C", {-5 * S2, 2 + 5 * S2, 0, 10 * S2, -10 * S2, 0, 1}, TRI, 0,
     {1, 0.4f, {-S2, S2, 0}, {0, 2, 0}, 0, VC}},
    {"passing beside", {4, -5, 0, 0, 10, 0, 1}, TRI, 0, {0}},
    {"short of contact", {0.5f, 0.5f, 12, 0, 0, -10, 1}, TRI, 0, {0}},
    {"touch at t = 1", {0.5f, 0.5f, 11, 0, 0, -10, 1}, TRI, 0,
     {1, 1, {0, 0, 1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"moving away", {0.5f, 0.5f, 5, 0, 0, 10, 1}, TRI, 0, {0}},
    {"sliding on the face at distance r", {0.5f, 0.5f, 1, 0.5f, 0.2f, 0, 1}, TRI, 0, {0}},
    {"sliding on the face, all overlaps", {0.5f, 0.5f, 1, 0.5f, 0.2f, 0, 1}, TRI,
     TOI_ALL_OVERLAPS, {1, 0, {0, 0, 1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"sliding over the face at distance r: tangent to edge CA", {-4, 0.5f, 1, 10, 0, 0, 1},
     TRI, 0, {1, 0.4f, {0, 0, 1}, {0, 0.5f, 0}, 0, ECA}},
    {"along an edge at distance r", {1, -1, 0, 0.5f, 0, 0, 1}, TRI, 0, {0}},
    {"along an edge at distance r, all overlaps", {1, -1, 0, 0.5f, 0, 0, 1}, TRI,
     TOI_ALL_OVERLAPS, {1, 0, {0, -1, 0}, {1, 0, 0}, 0, EAB}},
    {"along an edge's line into its vertex", {-3, -0.6f, 0, 10, 0, 0, 1}, TRI, 0,
     {1, 0.22f, {-0.8f, -0.6f, 0}, {0, 0, 0}, 0, VA}},
    {"overlap approaching", {0.5f, 0.5f, 0.5f, 0, 0, -1, 1}, TRI, 0,
     {1, 0, {0, 0, 1}, {0.5f, 0.5f, 0}, 0.5f, FACE}},
    {"overlap separating", {0.5f, 0.5f, 0.5f, 0, 0, 1, 1}, TRI, 0, {0}},
    {"overlap separating, all overlaps", {0.5f, 0.5f, 0.5f, 0, 0, 1, 1}, TRI, TOI_ALL_OVERLAPS,
     {1, 0, {0, 0, 1}, {0.5f, 0.5f, 0}, 0.5f, FACE}},
    {"overlap at an edge, approaching", {1, -0.5f, 0, 0, 1, 0, 1}, TRI, 0,
     {1, 0, {0, -1, 0}, {1, 0, 0}, 0.5f, EAB}},
    {"overlap at a vertex, separating", {-0.6f, -0.8f, 0, -1, 0, 0, 1}, TRI, 0, {0}},
    {"overlap at a vertex, approaching", {-0.6f, -0.8f, 0, 1, 0, 0, 1}, TRI, 0,
     {1, 0, {-0.6f, -0.8f, 0}, {0, 0, 0}, 0, VA}},
    {"centre on the face, moving through", {0.5f, 0.5f, 0, 0, 0, 1, 1}, TRI, 0, {0}},
    {"centre on the face, all overlaps (against the motion)", {0.5f, 0.5f, 0, 0, 0, 1, 1}, TRI,
     TOI_ALL_OVERLAPS, {1, 0, {0, 0, -1}, {0.5f, 0.5f, 0}, 1, FACE}},
    {"centre on the face at rest, all overlaps (front)", {0.5f, 0.5f, 0, 0, 0, 0, 1}, TRI,
     TOI_ALL_OVERLAPS, {1, 0, {0, 0, 1}, {0.5f, 0.5f, 0}, 1, FACE}},
    {"centre on an edge, moving away", {1, 0, 0, 0, -1, 0, 1}, TRI, 0, {0}},
    {"radius 0 through the face", {0.5f, 0.5f, 1, 0, 0, -2, 0}, TRI, 0,
     {1, 0.5f, {0, 0, 1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"radius 0 through the face from the back", {0.5f, 0.5f, -1, 0, 0, 2, 0}, TRI, 0,
     {1, 0.5f, {0, 0, -1}, {0.5f, 0.5f, 0}, 0, FACE}},
    {"far from the origin", {BIG + 0.5f, BIG + 0.5f, BIG + 5, 0, 0, -10, 1},
     {BIG, BIG, BIG, BIG + 2, BIG, BIG, BIG, BIG + 2, BIG}, 0,
     {1, 0.4f, {0, 0, 1}, {BIG + 0.5f, BIG + 0.5f, BIG}, 0, FACE}},
    {"path meets the plane far from the edge it touches", {-1, 0.5f, 0.9f, 4, -0.7f, -0.9f, 1},
     TRI, 0, {1, -1 /* computed */, {0}, {0}, 0, ECA}},
    {"degenerate: collinear (a segment)", {0.5f, -5, 0, 0, 10, 0, 1}, {0, 0, 0, 2, 0, 0, 1, 0, 0},
     0, {1, 0.4f, {0, -1, 0}, {0.5f, 0, 0}, 0, EAB | ECA}},
    {"degenerate: collinear, from above", {0.5f, 0, 5, 0, 0, -10, 1},
     {0, 0, 0, 2, 0, 0, 1, 0, 0}, 0, {1, 0.4f, {0, 0, 1}, {0.5f, 0, 0}, 0, EAB | ECA}},
    {"degenerate: two coincident vertices", {-5, 0, 0, 10, 0, 0, 1},
     {0, 0, 0, 0, 0, 0, 0, 3, 0}, 0, {1, 0.4f, {-1, 0, 0}, {0, 0, 0}, 0, VA | VB}},
    {"degenerate: a point", {-5, 0, 0, 10, 0, 0, 1}, {1, 0, 0, 1, 0, 0, 1, 0, 0}, 0,
     {1, 0.5f, {-1, 0, 0}, {1, 0, 0}, 0, VA}},
    {"degenerate: a point, culled", {-5, 0, 0, 10, 0, 0, 1}, {1, 0, 0, 1, 0, 0, 1, 0, 0},
     TOI_CULL_BACKFACES, {0}},
    /* a triangle without a face is its longest edge: the point (1, 0, 0), where vertex C
       also lies, is on edge AB */
    {"degenerate: centre on the segment, all overlaps (+x)", {1, 0, 0, 0, 0, 1, 1},
     {0, 0, 0, 2, 0, 0, 1, 0, 0}, TOI_ALL_OVERLAPS, {1, 0, {1, 0, 0}, {1, 0, 0}, 1, EAB}},
    {"NaN vertex", {0.5f, 0.5f, 5, 0, 0, -10, 1}, {0, 0, 0, 2, NANF, 0, 0, 2, 0},
     TOI_ALL_OVERLAPS, {0}},
    {"Inf vertex", {0.5f, 0.5f, 5, 0, 0, -10, 1}, {0, 0, 0, 2, 0, 0, 0, INFINITY, 0},
     TOI_ALL_OVERLAPS, {0}},
    {"NaN displacement", {0.5f, 0.5f, 5, 0, NANF, -10, 1}, TRI, TOI_ALL_OVERLAPS, {0}},
    {"negative radius", {0.5f, 0.5f, 0.5f, 0, 0, -10, -1}, TRI, TOI_ALL_OVERLAPS, {0}},
    {"Inf radius", {0.5f, 0.5f, 5, 0, 0, -10, INFINITY}, TRI, TOI_ALL_OVERLAPS, {0}},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* The expected result of a case whose t is computed here (the edge CA hit of the oblique
   path: (4t - 1)^2 + (0.9 - 0.9t)^2 = 1). */
static texpect expected(const tcase *c)
{
    texpect e = c->e;
    if (e.hit && e.t < 0) {
        double t = (9.62 - sqrt(9.62 * 9.62 - 4 * 16.81 * 0.81)) / (2 * 16.81);
        double x = -1 + 4 * t, y = 0.5 - 0.7 * t, z = 0.9 - 0.9 * t;
        e.t = (float)t;
        e.n[0] = (float)x, e.n[1] = 0, e.n[2] = (float)z;
        e.p[0] = 0, e.p[1] = (float)y, e.p[2] = 0;
    }
    return e;
}

static void check_out(const t_hits *h, size_t i, const texpect *e, int set, const char *what)
{
    const float miss[T_NOUT] = {TOI_NO_HIT, 0, 0, 0, 0, 0, 0, 0};
    const float hit[T_NOUT] = {e->t, e->n[0], e->n[1], e->n[2], e->p[0], e->p[1], e->p[2],
                               e->depth};
    const float *want = e->hit ? hit : miss;
    for (int k = 0; k < T_NOUT; k++)
        CHECK(near(h->f[k][i], want[k]), "%s [%zu]: %s = %.9g, want %.9g", what, i,
              t_out_names[k], h->f[k][i], want[k]);
    if (e->hit)
        CHECK(h->feature[i] < 7 && (e->feat >> h->feature[i] & 1), "%s [%zu]: feature %u",
              what, i, h->feature[i]);
    else
        CHECK(h->feature[i] == TOI_FEATURE_NONE, "%s [%zu]: feature %u on a miss", what, i,
              h->feature[i]);
    if (set == 1)
        CHECK(h->index[i] == (e->hit ? 0u : UINT32_MAX), "%s [%zu]: index %u", what, i,
              h->index[i]);
    else if (set == 0)
        CHECK(h->index[i] == 0xA5A5A5A5u, "%s [%zu]: index written by a pair query", what, i);
}

static void put(t_sph *s, t_tri *t, size_t i, const tcase *c)
{
    for (int k = 0; k < 7; k++)
        s->f[k][i] = c->s[k];
    for (int k = 0; k < 9; k++)
        t->f[k][i] = c->t[k];
}

/* Every case alone through the three queries, then all cases of one flag value in one batch
   (pairs and a reversed pair list), so a bad lane cannot disturb its neighbours. */
static void case_table(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, NCASES);
    t_tri_alloc(&t, NCASES);
    t_hits_alloc(&h, NCASES);
    for (size_t c = 0; c < NCASES; c++) {
        const tcase *tc = &cases[c];
        texpect e = expected(tc);
        put(&s, &t, 0, tc);
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_tris(im, 1, &s.s, &t.t, tc->flags, &h.h);
        CHECK(r == e.hit, "%s: pairs returned %td", tc->name, r);
        check_out(&h, 0, &e, 0, tc->name);
        CHECK(float_bits(h.f[0][1]) == 0xA5A5A5A5u, "%s: wrote past the end", tc->name);
        const uint32_t zero = 0;
        t_hits_fill(&h, 0xA5);
        r = t_tri_pairs(im, 1, &zero, &zero, 1, &s.s, 1, &t.t, tc->flags, &h.h);
        CHECK(r == e.hit, "%s: pair list returned %td", tc->name, r);
        check_out(&h, 0, &e, 0, tc->name);
        t_hits_fill(&h, 0xA5);
        r = t_tri_set(im, 1, &s.s, 1, &t.t, tc->flags, &h.h);
        CHECK(r == e.hit, "%s: set returned %td", tc->name, r);
        check_out(&h, 0, &e, 1, tc->name);
    }
    static const unsigned flag_values[3] = {0, TOI_ALL_OVERLAPS, TOI_CULL_BACKFACES};
    for (int f = 0; f < 3; f++) {
        size_t n = 0, want = 0, idx[NCASES];
        uint32_t is[NCASES], it[NCASES];
        for (size_t c = 0; c < NCASES; c++)
            if (cases[c].flags == flag_values[f]) {
                idx[n] = c;
                put(&s, &t, n, &cases[c]);
                want += cases[c].e.hit;
                n++;
            }
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_tris(im, n, &s.s, &t.t, flag_values[f], &h.h);
        CHECK(r == (ptrdiff_t)want, "batch of %zu: returned %td, want %zu", n, r, want);
        for (size_t i = 0; i < n; i++) {
            texpect e = expected(&cases[idx[i]]);
            check_out(&h, i, &e, 0, cases[idx[i]].name);
        }
        for (size_t k = 0; k < n; k++)
            is[k] = it[k] = (uint32_t)(n - 1 - k);
        t_hits_fill(&h, 0xA5);
        r = t_tri_pairs(im, n, is, it, n, &s.s, n, &t.t, flag_values[f], &h.h);
        CHECK(r == (ptrdiff_t)want, "reversed list of %zu: returned %td", n, r);
        for (size_t k = 0; k < n; k++) {
            texpect e = expected(&cases[idx[n - 1 - k]]);
            check_out(&h, k, &e, 0, cases[idx[n - 1 - k]].name);
        }
    }
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

/* One sphere against one triangle (element 0 of s and t) through query q: 0 the pairs query,
   1 a pair list of one, 2 a set of one; the outputs cleared to a pattern first. */
static ptrdiff_t one_query(const t_impl *im, int q, t_sph *s, t_tri *t, unsigned flags,
                           t_hits *h)
{
    const uint32_t zero = 0;
    t_hits_fill(h, 0xA5);
    return q == 0 ? t_tris(im, 1, &s->s, &t->t, flags, &h->h)
         : q == 1 ? t_tri_pairs(im, 1, &zero, &zero, 1, &s->s, 1, &t->t, flags, &h->h)
                  : t_tri_set(im, 1, &s->s, 1, &t->t, flags, &h->h);
}

/* A sliver (tip angle 1.4e-5 at b) whose acute tip the path passes: it first touches at
   t = 0.49949318529 (long-double and 200-bit oracles), at the vertex b, and within the
   accuracy rule's window t in [0.499451308, 0.499538495] (r grown and shrunk by 64 *
   FLT_EPSILON * S, S = 1.6775714). A one-sided inside test accepted the plane crossing at
   t = 0x1.fe3dp-2 = 0.4982, 51 * 64 * FLT_EPSILON * S farther than r from the triangle, as a
   face hit. Through the three queries. */
static void case_sliver_tip(const void *ctx)
{
    const t_impl *im = ctx;
    static const tcase c = {"sliver tip",
        {-0x1.e2b0a8p-2f, 0x1.2fdafp-3f, 0x1.37c5c8p-4f, 0x1.e2fe76p-1f, -0x1.2d0394p-2f,
         -0x1.3b2cdp-3f, 0x1.c2fbb6p-10f},
        {-0x1.27b72ap-2f, -0x1.599356p+0f, 0x1.9dd928p-1f, 0, 0, 0, -0x1.27b8dp-2f,
         -0x1.5994p+0f, 0x1.9dd6a4p-1f},
        0, {0}};
    const double n_want[3] = {-0.10538529359, 0.89301458218, -0.43751445223};
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_tri_alloc(&t, 1);
    t_hits_alloc(&h, 1);
    put(&s, &t, 0, &c);
    for (int q = 0; q < 3; q++) {
        ptrdiff_t r = one_query(im, q, &s, &t, 0, &h);
        float tt = h.f[0][0];
        CHECK(r == 1 && tt >= 0.499451308f && tt <= 0.499538495f,
              "query %d: returned %td, t = %a", q, r, tt);
        CHECK(h.feature[0] == TOI_FEATURE_VERTEX_B, "query %d: feature %u", q, h.feature[0]);
        for (int k = 0; k < 3; k++) {
            /* the point is b; the normal's error is the path's rounding (~FLT_EPSILON S) over
               r, far inside the accuracy group's bound (16 * 64 * FLT_EPSILON * S / r) */
            CHECK(h.f[4 + k][0] == 0.0f, "query %d: point %g", q, h.f[4 + k][0]);
            CHECK(fabs(h.f[1 + k][0] - n_want[k]) <= 1e-3, "query %d: normal %g, want %g", q,
                  h.f[1 + k][0], n_want[k]);
        }
        CHECK(h.f[7][0] == 0.0f, "query %d: depth %g", q, h.f[7][0]);
    }
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

/* A sphere sliding on a floor triangle at exactly its radius (z = 1.109375 over the face at
   z = 0.734375, r = 0.375): it touches from where its path enters the triangle, t =
   0.5547, and enters edge BC's cylinder at t = 0.6222 with its centre over the face; the
   contract allows either t (the motion is tangential), but point, normal and feature must
   describe the centre at the reported t: the face foot below it, +z, the face. (The kernel
   once reported t = 0.6222 with edge BC, a point on it and a normal 3.6e-4 rad off +z.)
   Through the three queries. */
static void case_floor_slide(const void *ctx)
{
    const t_impl *im = ctx;
    static const tcase c = {"floor slide",
        {4.31824827f, -2.78355312f, 1.109375f, -8.35201073f, 4.61502218f, 0, 0.375f},
        {-0.671875f, -1.5f, 0.734375f, -1.71875f, -1, 0.734375f, 0.140625f, 1.40625f,
         0.734375f},
        0, {0}};
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_tri_alloc(&t, 1);
    t_hits_alloc(&h, 1);
    put(&s, &t, 0, &c);
    for (int q = 0; q < 3; q++) {
        ptrdiff_t r = one_query(im, q, &s, &t, 0, &h);
        float tt = h.f[0][0];
        CHECK(r == 1 && tt >= 0.554f && tt <= 0.623f, "query %d: returned %td, t = %.9g", q, r,
              tt);
        CHECK(h.feature[0] == TOI_FEATURE_FACE, "query %d: feature %u", q, h.feature[0]);
        const float want_n[3] = {0, 0, 1};
        const float want_p[3] = {c.s[0] + tt * c.s[3], c.s[1] + tt * c.s[4], 0.734375f};
        for (int k = 0; k < 3; k++) {
            CHECK(h.f[1 + k][0] == want_n[k], "query %d: normal[%d] = %g", q, k, h.f[1 + k][0]);
            CHECK(near(h.f[4 + k][0], want_p[k]), "query %d: point[%d] = %.9g, want %.9g", q,
                  k, h.f[4 + k][0], want_p[k]);
        }
        CHECK(h.f[7][0] == 0.0f, "query %d: depth %g", q, h.f[7][0]);
    }
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

/* Paths nearly parallel to an edge, grazing its cylinder near one end (found by the
   accuracy group at 16x its samples and by its edge-end group). A: a path 2.6 degrees off
   edge BC that dips 0.034 below r = 18.83 within the segment, 23 units from b, while b's
   ball is missed by 1.5e-5: the long-double oracle's first contact lies in [0.694916932,
   0.699872372] (r grown and shrunk by 64 * FLT_EPSILON * S, S = 3870.04); the kernel's
   cylinder entry, poorly conditioned for so shallow a graze, was rounded 0.16 units (5e-5
   in t) to before b, outside the segment, and the query missed. Culled with TOI_CULL_BACKFACES (N.v > 0). B: a path 0.017
   degrees off edge AB whose distance from the edge exceeds r + 64 * FLT_EPSILON * S all
   along (the oracle misses even with r grown): the rounding of v x e along e, times the
   vertex's long component along the edge, put the path inside the cylinder, a hit at t =
   0.9724. C (from the magnitude group): a sphere of radius 7e-25 moving 2e-24, 0.0012
   beyond the end b of a sliver 0.036 long (BC) and within 1e-24 of its line: so near the
   line, the cylinder quadratic's c and q are subnormal in the kernel's units, and the
   entry's projection along the edge, tested as c ve - pe q, vanished with them: the path
   was judged within the segment, a hit at t = 1 (where the SIMD kernels, which do not skip
   on the separation reject, reported it; the scalar reference's reject missed). Every flag,
   through the three queries. D (the edge-end accuracy group at 16x its samples, query
   299676): a path 1.8e-4 rad off the face's plane, at height r + 2e-6 where it passes over
   edge AB near b, then over the face within r (0.0046020 against r = 0.0046243 at t =
   0.8967): the slab entry, poorly conditioned for so flat a path, projected just outside
   AB, and AB's cylinder was met tangentially, so neither piece hit - a false miss. The face
   entered through that wall (wall_time) closes the gap. Culled with TOI_CULL_BACKFACES. */
static void case_edge_end_graze(const void *ctx)
{
    const t_impl *im = ctx;
    static const tcase c[4] = {
        {"A", {893.538391f, 2492.13281f, -973.178223f, -1216.74707f, -2862.5415f, 1530.15247f,
               18.8325348f},
         {460.646729f, -881.943237f, 862.078369f, 64.8116455f, 494.354492f, 89.9141846f,
          -464.857117f, -734.783325f, 675.748169f},
         0, {0}},
        {"B", {-1.19089782f, -2.26877999f, -1.37807178f, 1.3163867f, 1.52974606f, 1.21896517f,
               0.00481178798f},
         {0.875809908f, 0.138072252f, 0.533944964f, -0.0137808323f, -0.895240068f,
          -0.289188385f, -0.701856732f, 0.629365683f, -0.482314944f},
         0, {0}},
        {"C", {-0x1.c2befp-81f, 0x1.3118dap-10f, -0x1.3414fp-82f, 0x1.a36c74p-81f,
               0x1.a2dcd4p-81f, -0x1.794bap-82f, 0x1.c11a7p-81f},
         {-0x1.d2684cp-125f, 0x1.c948a8p-82f, 0x1.e8b7a8p-82f, 0x1.0b5ff4p-81f, 0x1.5b6ccp-83f,
          -0x1.861ac4p-81f, -0x1.8e3c98p-81f, -0x1.248b1cp-5f, 0x1.f89c6p-82f},
         0, {0}},
        {"D", {0.884597838f, 1.82201147f, 0.899934292f, -0.935927153f, -1.37319338f,
               -0.163609073f, 0.00462425593f},
         {-0.5133636f, -0.253952384f, 0.691967607f, 0.119508862f, 0.707187176f, 0.768476129f,
          -0.927645922f, -0.275648952f, -0.00262486935f},
         0, {0}}};
    /* the oracle's windows of A and D (first contacts with r grown and shrunk) */
    static const float lo[4] = {0.694916932f, 0, 0, 0.813826588f};
    static const float hi[4] = {0.699872372f, 0, 0, 0.896655212f};
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_tri_alloc(&t, 1);
    t_hits_alloc(&h, 1);
    for (int i = 0; i < 4; i++) {
        put(&s, &t, 0, &c[i]);
        for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
            int want = (i == 0 || i == 3) && !(flags & TOI_CULL_BACKFACES);
            for (int q = 0; q < 3; q++) {
                ptrdiff_t r = one_query(im, q, &s, &t, flags, &h);
                float tt = h.f[0][0];
                if (want) {
                    CHECK(r == 1 && tt >= lo[i] && tt <= hi[i],
                          "%s, flags %u, query %d: returned %td, t = %.9g", c[i].name, flags, q,
                          r, tt);
                    CHECK(i == 3 ? h.feature[0] == TOI_FEATURE_FACE ||
                                       h.feature[0] == TOI_FEATURE_EDGE_AB
                                 : h.feature[0] == TOI_FEATURE_EDGE_BC ||
                                       h.feature[0] == TOI_FEATURE_VERTEX_B,
                          "%s, flags %u, query %d: feature %u", c[i].name, flags, q,
                          h.feature[0]);
                } else {
                    CHECK(r == 0 && tt == TOI_NO_HIT, "%s, flags %u, query %d: returned %td, "
                          "t = %.9g", c[i].name, flags, q, r, tt);
                }
            }
        }
    }
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

static void set_tri(t_tri *t, size_t j, const float v[9])
{
    for (int k = 0; k < 9; k++)
        t->f[k][j] = v[k];
}

/* set: 0 pair query (index untouched), 1 one-triangle set (index 0 or none), 2 not checked */

/* Sets of every size 0 .. 3 * T_MAXW + 1: distant triangles (the box test rejects them), a later
   hit, the earliest hit at index w, a tie with it at a higher index, a NaN triangle before
   it that would otherwise win; each at 4 misalignments. */
static void case_sets(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t maxn = 3 * T_MAXW + 1;
    const float far_tri[9] = {50, 50, 0, 52, 50, 0, 50, 52, 0};
    const float early[9] = {-1, -1, 0, 3, -1, 0, -1, 3, 0};    /* z = 0: t = 0.4 */
    const float late[9] = {-1, -1, -2, 3, -1, -2, -1, 3, -2};  /* z = -2: t = 0.6 */
    const float nan_tri[9] = {-1, -1, 1, 3, -1, 1, NANF, 3, 1}; /* z = 1: would be t = 0.3 */
    const float sphere[7] = {0.5f, 0.5f, 5, 0, 0, -10, 1};
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, 8);
    t_tri_alloc(&t, maxn + 8);
    t_hits_alloc(&h, 8);
    for (size_t off = 0; off < 4; off++)
        for (size_t n = 0; n <= maxn; n++) {
            size_t w = n ? (n * 7 + 3) % n : 0, tie = n ? (w + 1 + n / 2) % n : 0;
            for (size_t j = 0; j < n; j++) {
                const float *v = j == w ? early : (j % 3 == 1) ? late : far_tri;
                if (j == tie && tie > w)
                    v = early;
                if (j + 1 == w)
                    v = nan_tri;
                set_tri(&t, off + j, v);
            }
            for (int k = 0; k < 7; k++)
                s.f[k][off] = sphere[k];
            toi_spheres ss = s.s;
            toi_triangles tt = t.t;
            for (int k = 0; k < 7; k++)
                ((const float **)&ss)[k] += off;
            for (int k = 0; k < 9; k++)
                ((const float **)&tt)[k] += off;
            for (unsigned flags = 0; flags < 4; flags++) {
                t_hits_fill(&h, 0xA5);
                ptrdiff_t r = t_tri_set(im, 1, &ss, n, &tt, flags, &h.h);
                int want_hit = n > 0; /* the sphere moves against the front: never culled */
                CHECK(r == want_hit, "set of %zu (off %zu): returned %td", n, off, r);
                texpect e = {want_hit, 0.4f, {0, 0, 1}, {0.5f, 0.5f, 0}, 0, FACE};
                check_out(&h, 0, &e, 2, "set");
                CHECK(h.index[0] == (n ? (uint32_t)w : UINT32_MAX), "set of %zu: index %u, "
                      "want %zu", n, h.index[0], n ? w : (size_t)UINT32_MAX);
                CHECK(float_bits(h.f[0][1]) == 0xA5A5A5A5u, "set of %zu: wrote past", n);
            }
        }
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

/* Several spheres against one set: the earliest of several hits, ties to the lowest index,
   an overlap (t = 0) beating everything, and outputs passed as NULL left alone. */
static void case_set_ties(const void *ctx)
{
    const t_impl *im = ctx;
    /* two triangles sharing the edge x = 1 in z = 0; a third, identical to the second */
    const float tris[4][9] = {{0, 0, 0, 1, 0, 0, 1, 1, 0},
                              {1, 0, 0, 2, 0, 0, 1, 1, 0},
                              {1, 0, 0, 2, 0, 0, 1, 1, 0},
                              {0, 0, -3, 9, 0, -3, 0, 9, -3}};
    const float sph[4][7] = {{1, 0.25f, 5, 0, 0, -10, 1},  /* onto the shared edge: index 0 */
                             {1.5f, 0.25f, 5, 0, 0, -10, 1}, /* 1 and 2 tie: index 1 */
                             {5, 2, 5, 0, 0, -10, 1},        /* only the far plane */
                             {1.5f, 0.25f, 0.5f, 0, 0, -1, 1}}; /* overlapping all three */
    const uint32_t want_idx[4] = {0, 1, 3, 0}; /* sphere 3 also touches 0's edge x = 1 */
    const float want_t[4] = {0.4f, 0.4f, 0.7f, 0};
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, 4);
    t_tri_alloc(&t, 4);
    t_hits_alloc(&h, 4);
    for (int i = 0; i < 4; i++) {
        set_tri(&t, (size_t)i, tris[i]);
        for (int k = 0; k < 7; k++)
            s.f[k][i] = sph[i][k];
    }
    t_hits_fill(&h, 0xA5);
    CHECK(t_tri_set(im, 4, &s.s, 4, &t.t, 0, &h.h) == 4, "set ties: hit count");
    for (int i = 0; i < 4; i++) {
        CHECK(h.index[i] == want_idx[i], "sphere %d: index %u, want %u", i, h.index[i],
              want_idx[i]);
        CHECK(near(h.f[0][i], want_t[i]), "sphere %d: t %.9g, want %.9g", i, h.f[0][i],
              want_t[i]);
    }
    /* t and index only; then nothing but t */
    toi_hits o = {h.h.t, 0, 0, 0, 0, 0, 0, 0, h.h.index, 0, 0};
    t_hits_fill(&h, 0xA5);
    CHECK(t_tri_set(im, 4, &s.s, 4, &t.t, 0, &o) == 4, "t + index: hit count");
    for (int i = 0; i < 4; i++) {
        CHECK(h.index[i] == want_idx[i] && near(h.f[0][i], want_t[i]), "t + index %d", i);
        CHECK(h.feature[i] == 0xA5 && float_bits(h.f[1][i]) == 0xA5A5A5A5u,
              "sphere %d: an output passed as NULL was written", i);
    }
    o.index = NULL;
    t_hits_fill(&h, 0xA5);
    CHECK(t_tri_set(im, 4, &s.s, 4, &t.t, 0, &o) == 4, "t only: hit count");
    for (int i = 0; i < 4; i++)
        CHECK(near(h.f[0][i], want_t[i]) && h.index[i] == 0xA5A5A5A5u, "t only %d", i);
    /* no triangles at all: every sphere misses, tri may be NULL */
    t_hits_fill(&h, 0xA5);
    CHECK(t_tri_set(im, 4, &s.s, 0, NULL, 0, &h.h) == 0, "empty set");
    for (int i = 0; i < 4; i++)
        CHECK(h.f[0][i] == TOI_NO_HIT && h.index[i] == UINT32_MAX &&
                  h.feature[i] == TOI_FEATURE_NONE && h.f[4][i] == 0.0f,
              "empty set: sphere %d", i);
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

/* Pair batches of every size 1 .. 3 * T_MAXW + 1 at 4 misalignments, lanes cycling through hit,
   miss and overlap; nothing written outside; optional outputs passed as NULL stay unwritten
   and do not change t or the feature. */
static void case_sizes(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t maxn = 3 * T_MAXW + 1;
    const int pick[3] = {0, 12, 22}; /* face, passing beside, overlap approaching */
    t_sph s;
    t_tri t;
    t_hits h, h2;
    t_spheres_alloc(&s, maxn + 4);
    t_tri_alloc(&t, maxn + 4);
    t_hits_alloc(&h, maxn + 4);
    t_hits_alloc(&h2, maxn + 4);
    for (size_t off = 0; off < 4; off++)
        for (size_t n = 1; n <= maxn; n++) {
            size_t want = 0;
            for (size_t i = 0; i < n; i++) {
                const tcase *c = &cases[pick[(i + n) % 3]];
                put(&s, &t, off + i, c);
                want += c->e.hit;
            }
            toi_spheres ss = s.s;
            toi_triangles tt = t.t;
            for (int k = 0; k < 7; k++)
                ((const float **)&ss)[k] += off;
            for (int k = 0; k < 9; k++)
                ((const float **)&tt)[k] += off;
            toi_hits o = h.h;
            o.t += off, o.nx += off, o.ny += off, o.nz += off, o.px += off, o.py += off;
            o.pz += off, o.depth += off, o.index += off, o.feature += off;
            t_hits_fill(&h, 0xA5);
            ptrdiff_t r = t_tris(im, n, &ss, &tt, 0, &o);
            CHECK(r == (ptrdiff_t)want, "n %zu off %zu: returned %td, want %zu", n, off, r, want);
            for (size_t i = 0; i < n; i++) {
                const tcase *c = &cases[pick[(i + n) % 3]];
                check_out(&h, off + i, &c->e, 0, c->name);
            }
            for (int k = 0; k < T_NOUT; k++) {
                CHECK(float_bits(h.f[k][off + n]) == 0xA5A5A5A5u, "n %zu: %s written past end",
                      n, t_out_names[k]);
                if (off)
                    CHECK(float_bits(h.f[k][off - 1]) == 0xA5A5A5A5u,
                          "n %zu: %s written before start", n, t_out_names[k]);
            }
            CHECK(h.feature[off + n] == 0xA5, "n %zu: feature written past end", n);
            toi_hits o2 = {h2.h.t + off, 0, 0, 0, 0, 0, 0, 0, 0, h2.h.feature + off, 0};
            t_hits_fill(&h2, 0xA5);
            CHECK(t_tris(im, n, &ss, &tt, 0, &o2) == r, "t + feature count differs");
            for (size_t i = 0; i < n; i++) {
                CHECK(float_bits(h2.f[0][off + i]) == float_bits(h.f[0][off + i]) &&
                          h2.feature[off + i] == h.feature[off + i],
                      "n %zu lane %zu: t or feature differs with NULL outputs", n, i);
                CHECK(float_bits(h2.f[1][off + i]) == 0xA5A5A5A5u, "nx written");
            }
        }
    t_hits_free(&h);
    t_hits_free(&h2);
    t_tri_free(&t);
    t_spheres_free(&s);
}

/* Bad calls: TOI_EINVAL and nothing written; n = 0 returns 0 and writes nothing. */
static void case_bad(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph s;
    t_tri t;
    t_hits h;
    t_spheres_alloc(&s, 4);
    t_tri_alloc(&t, 4);
    t_hits_alloc(&h, 4);
    for (size_t i = 0; i < 4; i++)
        put(&s, &t, i, &cases[0]);
    const uint32_t good[4] = {0, 1, 2, 3}, bad[4] = {0, 1, 4, 3};
    toi_triangles holed = t.t;
    holed.by = NULL;
    toi_spheres sholed = s.s;
    sholed.r = NULL;
    toi_hits no_t = h.h;
    no_t.t = NULL;
    t_hits_fill(&h, 0xA5);
    CHECK(t_tris(im, 4, &s.s, &t.t, 4u, &h.h) == TOI_EINVAL, "unknown flag");
    CHECK(t_tris(im, 4, &s.s, &t.t, ~0u, &h.h) == TOI_EINVAL, "all flags");
    CHECK(t_tris(im, 4, &s.s, NULL, 0, &h.h) == TOI_EINVAL, "NULL triangles");
    CHECK(t_tris(im, 4, &s.s, &holed, 0, &h.h) == TOI_EINVAL, "NULL tri.by");
    CHECK(t_tris(im, 4, &sholed, &t.t, 0, &h.h) == TOI_EINVAL, "NULL s.r");
    CHECK(t_tris(im, 4, NULL, &t.t, 0, &h.h) == TOI_EINVAL, "NULL spheres");
    CHECK(t_tris(im, 4, &s.s, &t.t, 0, NULL) == TOI_EINVAL, "NULL out");
    CHECK(t_tris(im, 4, &s.s, &t.t, 0, &no_t) == TOI_EINVAL, "NULL out->t");
    CHECK(t_tri_pairs(im, 4, good, bad, 4, &s.s, 4, &t.t, 0, &h.h) == TOI_EINVAL,
          "triangle index == ntris");
    CHECK(t_tri_pairs(im, 4, bad, good, 4, &s.s, 4, &t.t, 0, &h.h) == TOI_EINVAL,
          "sphere index == nspheres");
    CHECK(t_tri_pairs(im, 4, good, good, 4, &s.s, 3, &t.t, 0, &h.h) == TOI_EINVAL,
          "triangle index > ntris");
    CHECK(t_tri_pairs(im, 4, NULL, good, 4, &s.s, 4, &t.t, 0, &h.h) == TOI_EINVAL, "NULL is");
    CHECK(t_tri_pairs(im, 4, good, NULL, 4, &s.s, 4, &t.t, 0, &h.h) == TOI_EINVAL, "NULL it");
    CHECK(t_tri_pairs(im, 4, good, good, 4, &s.s, 4, &holed, 0, &h.h) == TOI_EINVAL,
          "pair list NULL tri.by");
    CHECK(t_tri_pairs(im, 4, good, good, 4, &s.s, 4, &t.t, 8, &h.h) == TOI_EINVAL,
          "pair list unknown flag");
    CHECK(t_tri_set(im, 4, &s.s, 4, NULL, 0, &h.h) == TOI_EINVAL, "set NULL triangles");
    CHECK(t_tri_set(im, 4, &s.s, (size_t)UINT32_MAX, &t.t, 0, &h.h) == TOI_EINVAL,
          "set of UINT32_MAX triangles (its index could not name the hit)");
    CHECK(t_tri_set(im, 4, &s.s, 4, &holed, 0, &h.h) == TOI_EINVAL, "set NULL tri.by");
    CHECK(t_tri_set(im, 4, &sholed, 4, &t.t, 0, &h.h) == TOI_EINVAL, "set NULL s.r");
    CHECK(t_tri_set(im, 4, &s.s, 4, &t.t, 16, &h.h) == TOI_EINVAL, "set unknown flag");
    CHECK(t_tri_set(im, 4, &s.s, 4, &t.t, 0, &no_t) == TOI_EINVAL, "set NULL out->t");
    CHECK(t_tris(im, 0, &s.s, &t.t, 0, &h.h) == 0, "n = 0");
    CHECK(t_tri_pairs(im, 0, good, good, 0, &s.s, 0, &t.t, 0, &h.h) == 0, "npairs = 0");
    CHECK(t_tri_set(im, 0, &s.s, 4, &t.t, 0, &h.h) == 0, "set n = 0");
    for (int k = 0; k < T_NOUT; k++)
        for (size_t i = 0; i < 5; i++)
            CHECK(float_bits(h.f[k][i]) == 0xA5A5A5A5u, "%s[%zu] written by a rejected call",
                  t_out_names[k], i);
    for (size_t i = 0; i < 5; i++)
        CHECK(h.index[i] == 0xA5A5A5A5u && h.feature[i] == 0xA5,
              "index or feature [%zu] written by a rejected call", i);
    CHECK(t_tri_pairs(im, 4, good, good, 4, &s.s, 4, &t.t, TOI_FLAGS_ALL, &h.h) == 4,
          "good pair list with every flag");
    t_hits_free(&h);
    t_tri_free(&t);
    t_spheres_free(&s);
}

void group_tri_contract(void)
{
    t_run_impls("contract/triangle cases", case_table);
    t_run_impls("contract/triangle sliver tip", case_sliver_tip);
    t_run_impls("contract/triangle floor slide at exactly r", case_floor_slide);
    t_run_impls("contract/triangle paths grazing an edge near its end", case_edge_end_graze);
    t_run_impls("contract/triangle sets of every size", case_sets);
    t_run_impls("contract/triangle set ties and outputs", case_set_ties);
    t_run_impls("contract/triangle batch sizes and alignment", case_sizes);
    t_run_impls("contract/triangle bad calls", case_bad);
}
