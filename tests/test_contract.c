/* test_contract.c - group 1: hand-computed contract cases, on every backend */
#include "families.h"
#include "test.h"

#include <math.h>

#define NANF __builtin_nanf("")

static int near(float got, float want)
{
    if (isinf(want))
        return got == want;
    return fabsf(got - want) <= 1e-6f * (fabsf(want) > 1 ? fabsf(want) : 1);
}

/* One expected result; hit = 0 means t = TOI_NO_HIT and every other output 0. */
typedef struct expect {
    int hit;
    float t, n[3], p[3], depth;
} expect;

static void check_lane(const t_hits *h, size_t i, const expect *e, const char *what)
{
    const float miss[T_NOUT] = {TOI_NO_HIT, 0, 0, 0, 0, 0, 0, 0};
    const float hit[T_NOUT] = {e->t, e->n[0], e->n[1], e->n[2], e->p[0], e->p[1], e->p[2],
                               e->depth};
    const float *want = e->hit ? hit : miss;
    for (int k = 0; k < T_NOUT; k++)
        CHECK(near(h->f[k][i], want[k]), "%s lane %zu: %s = %.9g, want %.9g", what, i,
              t_out_names[k], h->f[k][i], want[k]);
}

typedef struct pair_case {
    const char *name;
    float a[7], b[7]; /* x y z vx vy vz r */
    unsigned flags;
    expect e;
    float t_exit; /* of a hit (a miss wants TOI_NO_HIT) */
} pair_case;

/* The exit time of lane i: TOI_NO_HIT for a miss; +0 (not -0) where it is 0. */
static void check_exit_lane(const t_hits *h, size_t i, int hit, float want, const char *what)
{
    float got = h->t_exit[i];
    if (!hit)
        want = TOI_NO_HIT;
    CHECK(near(got, want) && (want != 0.0f || float_bits(got) == 0u),
          "%s lane %zu: t_exit = %.9g (0x%08x), want %.9g", what, i, got, float_bits(got), want);
}

#define MISS {0}, TOI_NO_HIT /* expect a miss: every output 0, t and t_exit TOI_NO_HIT */

static const pair_case pair_cases[] = {
    {"head-on", {-5, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0,
     {1, 0.3f, {-1, 0, 0}, {-1, 0, 0}, 0}, 0.7f},
    {"B moving", {0, 0, 0, 0, 0, 0, 1}, {5, 0, 0, -10, 0, 0, 1}, 0,
     {1, 0.3f, {-1, 0, 0}, {1, 0, 0}, 0}, 0.7f},
    {"glancing hit", {-5, 1.5f, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0,
     {1, 0.367712434f, {-0.661437828f, 0.75f, 0}, {-0.661437828f, 0.75f, 0}, 0}, 0.632287566f},
    {"glancing miss", {-5, 2.5f, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"touch at t = 1", {-12, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0,
     {1, 1.0f, {-1, 0, 0}, {-1, 0, 0}, 0}, 1.4f},
    {"short of contact", {-12.5f, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"touch at t = 0 approaching", {-2, 0, 0, 1, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0,
     {1, 0, {-1, 0, 0}, {-1, 0, 0}, 0}, 4},
    {"touch at t = 0 separating", {-2, 0, 0, -1, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"touch at t = 0 separating, all overlaps", {-2, 0, 0, -1, 0, 0, 1},
     {0, 0, 0, 0, 0, 0, 1}, TOI_ALL_OVERLAPS, {1, 0, {-1, 0, 0}, {-1, 0, 0}, 0}, 0},
    {"touch at t = 0 sliding", {-2, 0, 0, 0, 1, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"zero displacement apart", {-5, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, TOI_ALL_OVERLAPS,
     MISS},
    {"zero displacement overlapping", {-1, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"zero displacement overlapping, all overlaps", {-1, 0, 0, 0, 0, 0, 1},
     {0, 0, 0, 0, 0, 0, 1}, TOI_ALL_OVERLAPS, {1, 0, {-1, 0, 0}, {-1, 0, 0}, 1}, INFINITY},
    {"overlap approaching", {-1, 0, 0, 0.5f, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0,
     {1, 0, {-1, 0, 0}, {-1, 0, 0}, 1}, 6},
    {"overlap separating", {-1, 0, 0, -0.5f, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"overlap sliding", {0, -1, 0, 3, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0, MISS},
    {"coincident centres", {3, 4, 5, 0, 0, 0, 1}, {3, 4, 5, 0, 0, 0, 2}, 0, MISS},
    {"coincident centres, all overlaps", {3, 4, 5, 1, 0, 0, 1}, {3, 4, 5, 1, 0, 0, 2},
     TOI_ALL_OVERLAPS, {1, 0, {1, 0, 0}, {5, 4, 5}, 3}, INFINITY},
    {"radius 0 through a point", {-1, 0, 0, 2, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, 0,
     {1, 0.5f, {1, 0, 0}, {0, 0, 0}, 0}, 0.5f},
    {"radius 0 against a sphere", {-5, 0, 0, 10, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 2}, 0,
     {1, 0.3f, {-1, 0, 0}, {-2, 0, 0}, 0}, 0.7f},
    {"negative zero radius", {-5, 0, 0, 10, 0, 0, -0.0f}, {0, 0, 0, 0, 0, 0, 2}, 0,
     {1, 0.3f, {-1, 0, 0}, {-2, 0, 0}, 0}, 0.7f},
    {"far from the origin", {99995, 1e5f, 1e5f, 10, 0, 0, 1}, {1e5f, 1e5f, 1e5f, 0, 0, 0, 1}, 0,
     {1, 0.3f, {-1, 0, 0}, {99999, 1e5f, 1e5f}, 0}, 0.7f},
    {"NaN position", {NANF, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, TOI_ALL_OVERLAPS, MISS},
    {"Inf displacement", {-5, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, INFINITY, 0, 1}, 0, MISS},
    {"Inf radius", {-5, 0, 0, 10, 0, 0, INFINITY}, {0, 0, 0, 0, 0, 0, 1}, TOI_ALL_OVERLAPS, MISS},
    {"negative radius", {-5, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, -0.5f}, TOI_ALL_OVERLAPS,
     MISS},
    {"NaN radius", {-1, 0, 0, 10, 0, 0, NANF}, {0, 0, 0, 0, 0, 0, 1}, TOI_ALL_OVERLAPS, MISS},
    /* exits of tiny motion: the rescaled solve (v.v below TOI_EXIT_MIN_A), exact here */
    {"tiny motion, exit far past the step", {-1, 0, 0, 0x1p-40f, 0, 0, 1},
     {0, 0, 0, 0, 0, 0, 1}, 0, {1, 0, {-1, 0, 0}, {-1, 0, 0}, 1}, 0x3p40f},
    {"smallest normal motion", {-1, 0, 0, 0x1p-126f, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1}, 0,
     {1, 0, {-1, 0, 0}, {-1, 0, 0}, 1}, 0x3p126f},
    {"subnormal motion: exit beyond the float range", {-1, 0, 0, 0x1p-128f, 0, 0, 1},
     {0, 0, 0, 0, 0, 0, 1}, 0, {1, 0, {-1, 0, 0}, {-1, 0, 0}, 1}, INFINITY},
};
#define NPAIR (sizeof pair_cases / sizeof pair_cases[0])

static void set_sphere(t_sph *s, size_t i, const float v[7])
{
    for (int k = 0; k < 7; k++)
        s->f[k][i] = v[k];
}

/* Each case alone, then all cases of one flag value in one batch with their lanes mixed, so
   a bad lane (NaN, Inf) must not change its neighbours. */
static void case_pairs(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph a, b;
    t_hits h;
    t_spheres_alloc(&a, NPAIR);
    t_spheres_alloc(&b, NPAIR);
    t_hits_alloc(&h, NPAIR);
    for (size_t c = 0; c < NPAIR; c++) {
        set_sphere(&a, 0, pair_cases[c].a);
        set_sphere(&b, 0, pair_cases[c].b);
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_spheres(im, 1, &a.s, &b.s, pair_cases[c].flags, &h.h);
        CHECK(r == pair_cases[c].e.hit, "%s: returned %td", pair_cases[c].name, r);
        check_lane(&h, 0, &pair_cases[c].e, pair_cases[c].name);
        check_exit_lane(&h, 0, pair_cases[c].e.hit, pair_cases[c].t_exit, pair_cases[c].name);
        CHECK(float_bits(h.f[0][1]) == 0xA5A5A5A5u, "%s: wrote past the end", pair_cases[c].name);
    }
    for (unsigned flags = 0; flags <= TOI_ALL_OVERLAPS; flags += TOI_ALL_OVERLAPS) {
        size_t n = 0, want = 0, idx[NPAIR];
        for (size_t c = 0; c < NPAIR; c++)
            if (pair_cases[c].flags == flags) {
                idx[n] = c;
                set_sphere(&a, n, pair_cases[c].a);
                set_sphere(&b, n, pair_cases[c].b);
                want += pair_cases[c].e.hit;
                n++;
            }
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_spheres(im, n, &a.s, &b.s, flags, &h.h);
        CHECK(r == (ptrdiff_t)want, "batch of %zu: returned %td, want %zu", n, r, want);
        for (size_t i = 0; i < n; i++) {
            const pair_case *pc = &pair_cases[idx[i]];
            check_lane(&h, i, &pc->e, pc->name);
            check_exit_lane(&h, i, pc->e.hit, pc->t_exit, pc->name);
        }
    }
    t_hits_free(&h);
    t_spheres_free(&a);
    t_spheres_free(&b);
}

/* Every batch size from 1 to 3 * T_MAXW + 1 (every tail of every width), at 4 misalignments,
   with lanes cycling through hit / miss / overlap; nothing past n is written, and outputs
   passed as NULL leave t unchanged. */
static void case_sizes(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t maxn = 3 * T_MAXW + 1;
    const int pick[3] = {0, 3, 13}; /* head-on, glancing miss, overlap approaching */
    t_sph a, b;
    t_hits h, h2;
    t_spheres_alloc(&a, maxn + 4);
    t_spheres_alloc(&b, maxn + 4);
    t_hits_alloc(&h, maxn + 4);
    t_hits_alloc(&h2, maxn + 4);
    for (size_t off = 0; off < 4; off++)
        for (size_t n = 1; n <= maxn; n++) {
            size_t want = 0;
            for (size_t i = 0; i < n; i++) {
                const pair_case *pc = &pair_cases[pick[(i + n) % 3]];
                set_sphere(&a, off + i, pc->a);
                set_sphere(&b, off + i, pc->b);
                want += pc->e.hit;
            }
            toi_spheres sa = a.s, sb = b.s;
            for (int k = 0; k < 7; k++) {
                ((const float **)&sa)[k] += off;
                ((const float **)&sb)[k] += off;
            }
            toi_hits o = h.h;
            o.t += off, o.nx += off, o.ny += off, o.nz += off, o.px += off, o.py += off;
            o.pz += off, o.depth += off, o.t_exit += off;
            t_hits_fill(&h, 0xA5);
            ptrdiff_t r = t_spheres(im, n, &sa, &sb, 0, &o);
            CHECK(r == (ptrdiff_t)want, "n %zu off %zu: returned %td, want %zu", n, off, r, want);
            for (size_t i = 0; i < n; i++) {
                const pair_case *pc = &pair_cases[pick[(i + n) % 3]];
                check_lane(&h, off + i, &pc->e, "sizes");
                check_exit_lane(&h, off + i, pc->e.hit, pc->t_exit, "sizes");
            }
            CHECK(float_bits(h.t_exit[off + n]) == 0xA5A5A5A5u, "n %zu: t_exit written past end",
                  n);
            if (off)
                CHECK(float_bits(h.t_exit[off - 1]) == 0xA5A5A5A5u,
                      "n %zu: t_exit written before start", n);
            for (int k = 0; k < T_NOUT; k++) {
                CHECK(float_bits(h.f[k][off + n]) == 0xA5A5A5A5u, "n %zu: %s written past end",
                      n, t_out_names[k]);
                if (off)
                    CHECK(float_bits(h.f[k][off - 1]) == 0xA5A5A5A5u,
                          "n %zu: %s written before start", n, t_out_names[k]);
            }
            /* t only, then t with only the depth */
            toi_hits o2 = {h2.h.t + off, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            t_hits_fill(&h2, 0xA5);
            CHECK(t_spheres(im, n, &sa, &sb, 0, &o2) == r, "t-only count differs");
            o2.depth = h2.h.depth + off;
            CHECK(t_spheres(im, n, &sa, &sb, 0, &o2) == r, "t+depth count differs");
            for (size_t i = 0; i < n; i++) {
                CHECK(float_bits(h2.f[0][off + i]) == float_bits(h.f[0][off + i]),
                      "n %zu lane %zu: t differs with NULL outputs", n, i);
                CHECK(float_bits(h2.f[7][off + i]) == float_bits(h.f[7][off + i]),
                      "n %zu lane %zu: depth differs with NULL outputs", n, i);
                CHECK(float_bits(h2.f[1][off + i]) == 0xA5A5A5A5u, "nx written");
            }
            /* t with only the exit time: the same t and t_exit as with every output */
            o2.depth = NULL;
            o2.t_exit = h2.h.t_exit + off;
            CHECK(t_spheres(im, n, &sa, &sb, 0, &o2) == r, "t+t_exit count differs");
            for (size_t i = 0; i < n; i++)
                CHECK(float_bits(h2.f[0][off + i]) == float_bits(h.f[0][off + i]) &&
                          float_bits(h2.t_exit[off + i]) == float_bits(h.t_exit[off + i]),
                      "n %zu lane %zu: t or t_exit differs with NULL outputs", n, i);
        }
    t_hits_free(&h);
    t_hits_free(&h2);
    t_spheres_free(&a);
    t_spheres_free(&b);
}

/* Broadphase pair lists: repeated pairs, both orders, self pairs. */
static void case_pair_list(const void *ctx)
{
    const t_impl *im = ctx;
    const float bodies[3][7] = {{-5, 0, 0, 10, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 1},
                                {-5, 2.5f, 0, 10, 0, 0, 1}};
    const uint32_t ia[] = {0, 1, 0, 1, 2, 0, 0, 1, 0, 1, 2};
    const uint32_t ib[] = {1, 0, 0, 1, 1, 1, 2, 0, 1, 1, 1};
    const size_t n = sizeof ia / sizeof ia[0];
    t_sph s;
    t_hits h;
    t_spheres_alloc(&s, 3);
    t_hits_alloc(&h, n);
    for (int i = 0; i < 3; i++)
        set_sphere(&s, (size_t)i, bodies[i]);
    const expect hit01 = {1, 0.3f, {-1, 0, 0}, {-1, 0, 0}, 0}; /* exit 0.7, self pairs never */
    const expect hit10 = {1, 0.3f, {1, 0, 0}, {-1, 0, 0}, 0};
    const expect self1 = {1, 0, {1, 0, 0}, {1, 0, 0}, 2};
    const expect self0 = {1, 0, {1, 0, 0}, {-4, 0, 0}, 2}; /* fallback normal from (-5,0,0) */
    const expect miss = {0};
    for (unsigned flags = 0; flags <= TOI_ALL_OVERLAPS; flags += TOI_ALL_OVERLAPS) {
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_pairs(im, n, ia, ib, 3, &s.s, flags, &h.h);
        for (size_t k = 0; k < n; k++) {
            const expect *e = &miss;
            if (ia[k] == 0 && ib[k] == 1)
                e = &hit01;
            else if (ia[k] == 1 && ib[k] == 0)
                e = &hit10;
            else if (ia[k] == 1 && ib[k] == 1 && flags)
                e = &self1;
            else if (ia[k] == 0 && ib[k] == 0 && flags)
                e = &self0;
            check_lane(&h, k, e, "pair list");
            check_exit_lane(&h, k, e->hit, ia[k] == ib[k] ? INFINITY : 0.7f, "pair list");
        }
        /* a self pair moves with itself: touching, never approaching */
        CHECK(r == (flags ? 8 : 5), "pair list returned %td", r);
    }
    t_hits_free(&h);
    t_spheres_free(&s);
}

typedef struct plane_case {
    const char *name;
    toi_plane p;
    float s[7];
    unsigned flags;
    expect e;
    float t_exit; /* of a hit */
} plane_case;

static const plane_case plane_cases[] = {
    {"falling onto z = 0", {0, 0, 1, 0}, {1, 2, 5, 0, 0, -10, 1}, 0,
     {1, 0.4f, {0, 0, 1}, {1, 2, 0}, 0}, INFINITY},
    {"parallel", {0, 0, 1, 0}, {1, 2, 5, 5, 0, 0, 1}, 0, MISS},
    {"moving away", {0, 0, 1, 0}, {1, 2, 5, 0, 0, 1, 1}, 0, MISS},
    {"short of the plane", {0, 0, 1, 0}, {0, 0, 12, 0, 0, -10, 1}, 0, MISS},
    {"touch at t = 1", {0, 0, 1, 0}, {0, 0, 11, 0, 0, -10, 1}, 0,
     {1, 1, {0, 0, 1}, {0, 0, 0}, 0}, INFINITY},
    {"inside the solid, sinking", {0, 0, 1, 0}, {0, 0, -3, 0, 0, -1, 1}, 0,
     {1, 0, {0, 0, 1}, {0, 0, 0}, 4}, INFINITY},
    {"inside the solid, rising", {0, 0, 1, 0}, {0, 0, -3, 0, 0, 1, 1}, 0, MISS},
    {"inside the solid, rising, all overlaps", {0, 0, 1, 0}, {0, 0, -3, 0, 0, 1, 1},
     TOI_ALL_OVERLAPS, {1, 0, {0, 0, 1}, {0, 0, 0}, 4}, 4},
    {"resting and sliding", {0, 0, 1, 0}, {0, 0, 1, 3, 0, 0, 1}, 0, MISS},
    {"resting and sliding, all overlaps", {0, 0, 1, 0}, {0, 0, 1, 3, 0, 0, 1}, TOI_ALL_OVERLAPS,
     {1, 0, {0, 0, 1}, {0, 0, 0}, 0}, INFINITY},
    {"tilted plane", {0.6f, 0.8f, 0, 2}, {6, 8, 0, -6, -8, 0, 1}, 0,
     {1, 0.7f, {0.6f, 0.8f, 0}, {1.2f + 1.2f * 0, 1.6f, 0}, 0}, INFINITY},
    {"radius 0", {0, 0, 1, 0}, {0, 0, 5, 0, 0, -10, 0}, 0, {1, 0.5f, {0, 0, 1}, {0, 0, 0}, 0},
     INFINITY},
    {"rising out of contact, all overlaps", {0, 0, 1, 0}, {0, 0, 0.5f, 0, 0, 2, 1},
     TOI_ALL_OVERLAPS, {1, 0, {0, 0, 1}, {0, 0, 0}, 0.5f}, 0.25f},
    /* n.v of a tiny displacement: the rescaled exit (|v|_1 below TOI_EXIT_MIN_V), exact */
    {"rising at 2^-120, all overlaps", {0, 0, 1, 0}, {0, 0, 0.5f, 0, 0, 0x1p-120f, 1},
     TOI_ALL_OVERLAPS, {1, 0, {0, 0, 1}, {0, 0, 0}, 0.5f}, 0x1p119f},
    {"NaN plane", {0, 0, NANF, 0}, {1, 2, 5, 0, 0, -10, 1}, TOI_ALL_OVERLAPS, MISS},
    {"Inf plane offset", {0, 0, 1, INFINITY}, {1, 2, 5, 0, 0, -10, 1}, TOI_ALL_OVERLAPS, MISS},
    {"NaN sphere", {0, 0, 1, 0}, {1, NANF, 5, 0, 0, -10, 1}, TOI_ALL_OVERLAPS, MISS},
    {"negative radius", {0, 0, 1, 0}, {1, 2, 0, 0, 0, -10, -1}, TOI_ALL_OVERLAPS, MISS},
    /* finite inputs whose n.c - d or n.v overflows: out of range, a miss (never NaN) */
    {"n.c - d overflows", {0, 0, 1, 0x1.fffffep127f}, {0, 0, -0x1.fffffep127f, 0, 0, -1, 1},
     TOI_ALL_OVERLAPS, MISS},
    {"n.v overflows", {0.6f, 0.8f, 0, 0}, {0, 0, 0, -0x1.fffffep127f, -0x1.fffffep127f, 0, 1},
     TOI_ALL_OVERLAPS, MISS},
};
#define NPLANE (sizeof plane_cases / sizeof plane_cases[0])

static void case_plane(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph s;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_hits_alloc(&h, 1);
    for (size_t c = 0; c < NPLANE; c++) {
        set_sphere(&s, 0, plane_cases[c].s);
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_plane(im, 1, &s.s, &plane_cases[c].p, plane_cases[c].flags, &h.h);
        CHECK(r == plane_cases[c].e.hit, "%s: returned %td", plane_cases[c].name, r);
        check_lane(&h, 0, &plane_cases[c].e, plane_cases[c].name);
        check_exit_lane(&h, 0, plane_cases[c].e.hit, plane_cases[c].t_exit, plane_cases[c].name);
    }
    t_hits_free(&h);
    t_spheres_free(&s);
}

/* Bad calls: TOI_EINVAL and nothing written; n = 0 returns 0 and writes nothing. */
static void case_bad_calls(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph a, b;
    t_hits h;
    t_spheres_alloc(&a, 4);
    t_spheres_alloc(&b, 4);
    t_hits_alloc(&h, 4);
    for (int i = 0; i < 4; i++) {
        set_sphere(&a, (size_t)i, pair_cases[0].a);
        set_sphere(&b, (size_t)i, pair_cases[0].b);
    }
    const toi_plane pl = {0, 0, 1, 0};
    const uint32_t good[4] = {0, 1, 2, 3}, bad[4] = {0, 1, 4, 3};
    toi_spheres holed = a.s;
    holed.vy = NULL;
    toi_hits no_t = h.h;
    no_t.t = NULL;
    t_hits_fill(&h, 0xA5);
    CHECK(t_spheres(im, 4, &a.s, &b.s, 1u << 7, &h.h) == TOI_EINVAL, "unknown flag");
    CHECK(t_spheres(im, 4, &a.s, &b.s, ~0u, &h.h) == TOI_EINVAL, "all flags");
    CHECK(t_spheres(im, 4, NULL, &b.s, 0, &h.h) == TOI_EINVAL, "NULL a");
    CHECK(t_spheres(im, 4, &a.s, &holed, 0, &h.h) == TOI_EINVAL, "NULL b.vy");
    CHECK(t_spheres(im, 4, &a.s, &b.s, 0, NULL) == TOI_EINVAL, "NULL out");
    CHECK(t_spheres(im, 4, &a.s, &b.s, 0, &no_t) == TOI_EINVAL, "NULL out->t");
    CHECK(t_pairs(im, 4, good, bad, 4, &a.s, 0, &h.h) == TOI_EINVAL, "index == nbodies");
    CHECK(t_pairs(im, 4, bad, good, 3, &a.s, 0, &h.h) == TOI_EINVAL, "index > nbodies");
    CHECK(t_pairs(im, 4, NULL, good, 4, &a.s, 0, &h.h) == TOI_EINVAL, "NULL ia");
    CHECK(t_pairs(im, 4, good, good, 4, &holed, 0, &h.h) == TOI_EINVAL, "NULL bodies.vy");
    CHECK(t_pairs(im, 4, good, good, 4, &a.s, 8, &h.h) == TOI_EINVAL, "pairs unknown flag");
    CHECK(t_plane(im, 4, &a.s, NULL, 0, &h.h) == TOI_EINVAL, "NULL plane");
    CHECK(t_plane(im, 4, &holed, &pl, 0, &h.h) == TOI_EINVAL, "NULL s.vy");
    CHECK(t_plane(im, 4, &a.s, &pl, 4, &h.h) == TOI_EINVAL, "plane unknown flag");
    CHECK(t_spheres(im, 0, &a.s, &b.s, 0, &h.h) == 0, "n = 0");
    CHECK(t_pairs(im, 0, good, good, 0, &a.s, 0, &h.h) == 0, "npairs = 0");
    CHECK(t_plane(im, 0, &a.s, &pl, 0, &h.h) == 0, "n = 0 plane");
    for (int k = 0; k < T_NOUT; k++)
        for (size_t i = 0; i < 5; i++)
            CHECK(float_bits(h.f[k][i]) == 0xA5A5A5A5u, "%s[%zu] written by a rejected call",
                  t_out_names[k], i);
    CHECK(t_pairs(im, 4, good, good, 4, &a.s, TOI_ALL_OVERLAPS, &h.h) == 4, "good pair list");
    t_hits_free(&h);
    t_spheres_free(&a);
    t_spheres_free(&b);
}

static void case_bad_calls_families(const void *ctx);

void group_contract(void)
{
    t_run_impls("contract/sphere pairs", case_pairs);
    t_run_impls("contract/batch sizes and alignment", case_sizes);
    t_run_impls("contract/pair lists", case_pair_list);
    t_run_impls("contract/plane", case_plane);
    t_run_impls("contract/bad calls", case_bad_calls);
    t_run_impls("contract/bad calls, every query", case_bad_calls_families);
}

/* Bad calls on every query family (families.c): each undefined flag bit alone, and for
   indexed queries one index out of range (== the set's size, and UINT32_MAX) at the first,
   a middle and the last position; TOI_EINVAL and nothing written. */
static void case_bad_calls_families(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t n = 11;
    t_hits h;
    t_hits_alloc(&h, n);
    for (int fi = 0; fi < t_nfamilies; fi++) {
        const t_family *f = &t_families[fi];
        t_batch b;
        t_batch_make(&b, f, n, n, t_seed ^ (0xbad + (uint64_t)fi));
        if (im->via_api)
            toi_set_backend(im->k->id);
        const toi_kernels *k = im->via_api ? NULL : im->k;
        /* per-call values out of their range (toi_respond's restitution and friction) */
        for (int pk = 0; pk < t_nparam(f) && f->invalid; pk++) {
            static const float bad[3] = {-0.25f, 1.5f, NAN};
            for (int v = 0; v < 3 && f->pkind[pk] == 'e'; v++) {
                float keep = b.a.param[pk], before[T_MAXARR][11];
                for (int j = 0; j < f->inout; j++)
                    memcpy(before[j], b.a.q[j], n * sizeof(float));
                b.a.param[pk] = bad[v];
                CHECK(f->invalid(&b.a) && f->call(k, n, &b.a, 0, NULL) == TOI_EINVAL,
                      "%s: value %d = %g", f->name, pk, bad[v]);
                for (int j = 0; j < f->inout; j++)
                    CHECK(memcmp(b.a.q[j], before[j], n * sizeof(float)) == 0,
                          "%s: array %d written on a bad value", f->name, j);
                b.a.param[pk] = keep;
            }
        }
        for (unsigned bit = 0; bit < 32 && !f->inout; bit++) {
            if ((1u << bit) & TOI_FLAGS_ALL)
                continue;
            t_hits_fill(&h, 0xA5);
            CHECK(f->call(k, n, &b.a, 1u << bit, &h.h) == TOI_EINVAL, "%s: flag bit %u",
                  f->name, bit);
            CHECK(h.f[0][0] == bits_float(0xA5A5A5A5u), "%s: written on a bad flag", f->name);
        }
        for (int x = 0; x < f->nidx; x++) {
            uint32_t *idx = (uint32_t *)(uintptr_t)b.a.idx[x];
            const size_t where[3] = {0, n / 2, n - 1};
            const uint32_t bad[2] = {(uint32_t)b.a.nset[f->idx_set[x]], UINT32_MAX};
            for (int w = 0; w < 3; w++)
                for (int v = 0; v < 2; v++) {
                    uint32_t keep = idx[where[w]];
                    idx[where[w]] = bad[v];
                    t_hits_fill(&h, 0xA5);
                    CHECK(f->call(k, n, &b.a, 0, &h.h) == TOI_EINVAL, "%s: index array %d = "
                          "%u at %zu", f->name, x, bad[v], where[w]);
                    for (int o = 0; o < T_NOUT; o++)
                        for (size_t i = 0; i <= n; i++)
                            CHECK(float_bits(h.f[o][i]) == 0xA5A5A5A5u, "%s: %s[%zu] written "
                                  "on a bad index", f->name, t_out_names[o], i);
                    idx[where[w]] = keep;
                }
        }
        t_hits_fill(&h, 0xA5);
        CHECK(f->call(k, n, &b.a, 0, f->inout ? NULL : &h.h) >= 0, "%s: the good call fails",
              f->name);
        t_batch_free(&b);
    }
    t_hits_free(&h);
}
