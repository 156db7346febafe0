/* test_magnitude.c - magnitude: (1) finite inputs of every magnitude, from denormals to
   FLT_MAX, in every query family on every backend: never NaN, never a crash, the contract's
   invariants, bit-identical (through the fuzz check); (2) the documented range of the accuracy
   contract at its edges: just inside 2^127 (and down among the denormals) the answer is right,
   just outside it is a miss. */
#include "fuzzcheck.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A finite float of random sign and any exponent (denormals, 0 and FLT_MAX included). */
static float any_finite(rng *r)
{
    uint32_t u = (uint32_t)rng_u64(r);
    uint32_t e = rng_below(r, 255); /* 0 .. 254: never Inf or NaN */
    return bits_float((u & 0x807fffffu) | e << 23);
}

/* A value of the given kind at any magnitude: radii non-negative, a plane's normal unit (a
   precondition), the rest anything finite. Values of one query share a magnitude half the
   time, so some of them touch. */
static float draw_any(rng *r, char kind, int *nc, float common)
{
    static const float unit[3] = {0.0f, 0.6f, 0.8f};
    float v = rng_below(r, 2) ? any_finite(r) : common * rng_range(r, -4.0f, 4.0f);
    if (!isfinite(v))
        v = common;
    switch (kind) {
    case 'r': return fabsf(v);
    case 'h': return fabsf(v);
    case 'n': return unit[(*nc)++ % 3];
    case 'q': return 0.5f; /* (1, 1, 1, 1) / 2: a unit quaternion */
    case 't': return rng_below(r, 2) ? rng_unit(r) : v; /* a hit time, or a miss */
    case 'e': return rng_unit(r);                       /* restitution, friction */
    }
    return v;
}

static void case_any_magnitude(const void *ctx)
{
    const t_family *f = ctx;
    enum { N = 24, M = 24 };
    static float q[T_MAXARR][N], set[2][T_MAXARR][M];
    static uint32_t idx[2][N];
    static uint8_t buf[1 << 16];
    rng r = t_rng(0x3a61 + (uint64_t)(f - t_families));
    /* a whole-set family's query (index output: the set and mesh queries) runs against all M
       members, M times a pair family's work: a third of the calls (1,000 of them still test
       8 times the pairs of a pair family's 3,000), which took 41 of the group's 47 s */
    size_t calls = t_count(f->writes_index ? 1000 : 3000), bad = 0;
    for (size_t c = 0; c < calls && bad < 5; c++) {
        t_args a;
        memset(&a, 0, sizeof a);
        float common = ldexpf(1.0f, (int)rng_below(&r, 276) - 149); /* 2^-149 .. 2^126 */
        for (int k = 0; k < t_nq(f); k++) {
            int nc = 0;
            for (size_t i = 0; i < N; i++)
                q[k][i] = draw_any(&r, f->qkind[k], &nc, common);
            a.q[k] = q[k];
        }
        for (int s = 0; s < f->nsets; s++) {
            a.nset[s] = M;
            for (int k = 0; k < t_nset_arrays(f, s); k++) {
                int nc = 0;
                for (size_t i = 0; i < M; i++)
                    set[s][k][i] = draw_any(&r, f->skind[s][k], &nc, common);
                a.set[s][k] = set[s][k];
            }
        }
        for (int k = 0; k < f->nidx; k++) {
            for (size_t i = 0; i < N; i++)
                idx[k][i] = rng_below(&r, M);
            a.idx[k] = idx[k];
        }
        int nc = 0;
        for (int k = 0; k < t_nparam(f); k++)
            a.param[k] = draw_any(&r, f->pkind[k], &nc, common);
        /* every flag subset that applies; rows updating in place: each optional input set */
        unsigned flags = (unsigned)c & f->flags, outmask = f->inout ? (unsigned)c % 4 : 0x1ff;
        size_t len = t_fuzz_encode(f, &a, N, flags, outmask, buf, sizeof buf);
        char msg[512];
        CHECK(len > 0, "cannot encode");
        if (len && t_fuzz_one(f, buf, len, msg, sizeof msg)) {
            CHECK(0, "call %zu: %s", c, msg);
            bad++;
        }
    }
}

/* ---- the range at its edges ---- */

static int close_to(float got, float want, float tol)
{
    return fabsf(got - want) <= tol;
}

/* Head-on pair scaled by k: A at (-5k, 0, 0) moving (10k, 0, 0), B at the origin, radii k.
   Relative size 17k. Contact at t = 0.3, normal (-1, 0, 0), point (-k, 0, 0). */
static void check_head_on(const t_impl *im, float k, int want_hit, const char *what)
{
    t_sph a, b;
    t_hits h;
    t_spheres_alloc(&a, 1);
    t_spheres_alloc(&b, 1);
    t_hits_alloc(&h, 1);
    const float va[7] = {-5 * k, 0, 0, 10 * k, 0, 0, k}, vb[7] = {0, 0, 0, 0, 0, 0, k};
    for (int c = 0; c < 7; c++) {
        a.f[c][0] = va[c];
        b.f[c][0] = vb[c];
    }
    for (int entry = 0; entry < 2; entry++) {
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r;
        if (entry == 0) {
            r = t_spheres(im, 1, &a.s, &b.s, 0, &h.h);
        } else { /* the same pair through a pair list: bodies a and b as members 0 and 1 */
            t_sph s;
            t_spheres_alloc(&s, 2);
            for (int c = 0; c < 7; c++)
                s.f[c][0] = va[c], s.f[c][1] = vb[c];
            const uint32_t ia = 0, ib = 1;
            r = t_pairs(im, 1, &ia, &ib, 2, &s.s, 0, &h.h);
            t_spheres_free(&s);
        }
        const char *how = entry ? "pair list" : "pairs";
        CHECK(r == want_hit, "%s (%s): returned %td, want %d", what, how, r, want_hit);
        for (int o = 0; o < T_NOUT; o++)
            CHECK(!isnan(h.f[o][0]), "%s (%s): %s is NaN", what, how, t_out_names[o]);
        if (!want_hit) {
            CHECK(h.f[0][0] == TOI_NO_HIT && h.t_exit[0] == TOI_NO_HIT,
                  "%s (%s): t = %g, t_exit = %g, want TOI_NO_HIT", what, how, h.f[0][0],
                  h.t_exit[0]);
            continue;
        }
        CHECK(close_to(h.f[0][0], 0.3f, 1e-5f), "%s (%s): t = %.9g", what, how, h.f[0][0]);
        CHECK(close_to(h.f[1][0], -1, 1e-6f) && close_to(h.f[2][0], 0, 1e-6f) &&
              close_to(h.f[3][0], 0, 1e-6f), "%s (%s): normal %g %g %g", what, how, h.f[1][0],
              h.f[2][0], h.f[3][0]);
        CHECK(close_to(h.f[4][0] / k, -1, 1e-5f) && h.f[5][0] == 0 && h.f[6][0] == 0,
              "%s (%s): point %g %g %g", what, how, h.f[4][0], h.f[5][0], h.f[6][0]);
        CHECK(h.f[7][0] == 0, "%s (%s): depth %g", what, how, h.f[7][0]);
        CHECK(close_to(h.t_exit[0], 0.7f, 1e-5f), "%s (%s): t_exit = %.9g", what, how,
              h.t_exit[0]);
    }
    t_hits_free(&h);
    t_spheres_free(&a);
    t_spheres_free(&b);
}

static void case_sphere_range(const void *ctx)
{
    const t_impl *im = ctx;
    /* 17k < 2^127 down to the denormals: in range, and squares of the raw values would
       overflow (k >= 2^64) or underflow (k <= 2^-75) without the kernel's exact prescaling. */
    static const int in_range[] = {122, 100, 64, 1, 0, -75, -126, -140};
    char what[64];
    for (size_t i = 0; i < sizeof in_range / sizeof in_range[0]; i++) {
        snprintf(what, sizeof what, "k = 2^%d", in_range[i]);
        check_head_on(im, ldexpf(1.0f, in_range[i]), 1, what);
    }
    /* 17k >= 2^127: out of range, a miss */
    check_head_on(im, 0x1p123f, 0, "k = 2^123 (size 17 * 2^123 >= 2^127)");
    check_head_on(im, 0x1p124f, 0, "k = 2^124");
    /* the edge itself: sizes 2^127 - ulp (in) and 2^127 (out), touching at t = 0 */
    t_sph a, b;
    t_hits h;
    t_spheres_alloc(&a, 2);
    t_spheres_alloc(&b, 2);
    t_hits_alloc(&h, 2);
    const float below = 0x1.fffffep126f; /* |l| + R = 2^127 - 2^103 */
    const float ra[2] = {0x1p125f, 0x1p125f};
    const float lx[2] = {below - 0x1p126f, 0x1p126f}; /* R = 2^126 */
    for (int i = 0; i < 2; i++) {
        a.f[0][i] = lx[i], a.f[6][i] = ra[i];
        b.f[6][i] = 0x1p125f;
    }
    CHECK(t_spheres(im, 2, &a.s, &b.s, TOI_ALL_OVERLAPS, &h.h) == 1, "edge: hit count");
    CHECK(h.f[0][0] == 0.0f, "edge, size just below 2^127: t = %g, want 0 (touching)",
          h.f[0][0]);
    CHECK(close_to(h.f[1][0], 1, 1e-6f), "edge: normal x %g", h.f[1][0]);
    CHECK(h.f[0][1] == TOI_NO_HIT, "edge, size 2^127: t = %g, want TOI_NO_HIT", h.f[0][1]);
    t_hits_free(&h);
    t_spheres_free(&a);
    t_spheres_free(&b);
}

/* Plane z = 0 (or offset d), sphere at height 5k falling 10k with radius k: t = 0.4. */
static void case_plane_range(const void *ctx)
{
    const t_impl *im = ctx;
    static const int in_range[] = {124, 100, 64, 0, -75, -126, -140};
    t_sph s;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_hits_alloc(&h, 1);
    const toi_plane pl = {0, 0, 1, 0};
    for (size_t i = 0; i < sizeof in_range / sizeof in_range[0]; i++) {
        float k = ldexpf(1.0f, in_range[i]);
        const float v[7] = {3 * k, -2 * k, 5 * k, k, 0, -10 * k, k};
        for (int c = 0; c < 7; c++)
            s.f[c][0] = v[c];
        t_hits_fill(&h, 0xA5);
        ptrdiff_t r = t_plane(im, 1, &s.s, &pl, 0, &h.h);
        CHECK(r == 1 && close_to(h.f[0][0], 0.4f, 1e-6f), "k = 2^%d: returned %td, t = %.9g",
              in_range[i], r, h.f[0][0]);
        /* the point to 1e-5 relative, or a few float spacings among the denormals */
        float tol = fmaxf(3.4f * k * 1e-5f, 0x1p-147f);
        CHECK(close_to(h.f[4][0], 3.4f * k, tol) && close_to(h.f[5][0], -2 * k, tol) &&
              h.f[6][0] == 0, "k = 2^%d: point %g %g %g", in_range[i], h.f[4][0], h.f[5][0],
              h.f[6][0]);
    }
    /* n.c - d at the edge of float range: 2^127 is still representable (in range); the
       sphere falls from there onto the plane z = -2^126 */
    const toi_plane low = {0, 0, 1, -0x1p126f};
    const float v[7] = {0, 0, 0x1p126f, 0, 0, -0x1.8p127f, 0x1p124f};
    for (int c = 0; c < 7; c++)
        s.f[c][0] = v[c];
    ptrdiff_t r = t_plane(im, 1, &s.s, &low, 0, &h.h);
    /* s0 = 2^127, sv = -1.5 * 2^127: t = (2^124 - 2^127) / sv = 7/12 */
    CHECK(r == 1 && close_to(h.f[0][0], 7.0f / 12.0f, 1e-6f), "edge: returned %td, t = %.9g",
          r, h.f[0][0]);
    CHECK(!isnan(h.f[4][0]) && !isnan(h.f[5][0]) && !isnan(h.f[6][0]), "edge: NaN point");
    t_hits_free(&h);
    t_spheres_free(&s);
}

/* An edge 2^-40 the size of the query, 2^112 from a sphere of radius 2^94 that passes it: a
   miss. The edge's discriminant, a product of scaled squares, underflowed to -0 and counted
   as a touching path (found by this group: the set kernels' box test skipped the triangle,
   the plain loop did not, so the backends differed). */
static void case_tiny_edge(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph s;
    t_tri tr;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_tri_alloc(&tr, 1);
    t_hits_alloc(&h, 1);
    const float sv[7] = {-0x1.1fe58p-100f, -0x1.34dd98p+112f, 0x1.1b0d48p+114f,
                         -0x1.4f2e18p-98f, -0x1.fe7e2p-100f, -0x1.4f195cp+114f, 0x1.9dffdp+94f};
    const float tv[9] = {0x1.33c316p+76f, -0x1.7cd2ccp+69f, -0x1.fcbep-102f,
                         0x1.ae9d98p-98f, 0x1.36eeep-99f,  0x1.ca4b1p-98f,
                         -0x1.05d1dp-100f, 0x1.924e7p-98f, -0x1.fdfa3ap-54f};
    for (int c = 0; c < 7; c++)
        s.f[c][0] = sv[c];
    for (int c = 0; c < 9; c++)
        tr.f[c][0] = tv[c];
    const uint32_t zero = 0;
    for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
        for (int q = 0; q < 3; q++) {
            t_hits_fill(&h, 0xA5);
            ptrdiff_t r = q == 0   ? t_tris(im, 1, &s.s, &tr.t, flags, &h.h)
                          : q == 1 ? t_tri_pairs(im, 1, &zero, &zero, 1, &s.s, 1, &tr.t, flags,
                                                 &h.h)
                                   : t_tri_set(im, 1, &s.s, 1, &tr.t, flags, &h.h);
            CHECK(r == 0 && h.f[0][0] == TOI_NO_HIT, "query %d flags %u: returned %td, t = %a "
                  "(feature %u), want a miss", q, flags, r, h.f[0][0], h.feature[0]);
        }
    }
    t_hits_free(&h);
    t_tri_free(&tr);
    t_spheres_free(&s);
}

/* A sliver 2^75 from the sphere's start, its normal almost +x, passed at ~2^75 by a path
   along -y: a miss (the margin is ~2^61). Relative to the start, b and c round to the same
   y and z, so the rounded triangle lies in a plane y = const that the path crosses; the
   face test took the true triangle's normal with the rounded triangle's edges, whose
   half-planes then accepted the crossing point: a face hit at t = 0x1.081cd4p-8 (found by
   the fuzzer: the set kernels' box test skipped the triangle, the plain loop did not). */
static void case_far_sliver(const void *ctx)
{
    const t_impl *im = ctx;
    t_sph s;
    t_tri tr;
    t_hits h;
    t_spheres_alloc(&s, 1);
    t_tri_alloc(&tr, 1);
    t_hits_alloc(&h, 1);
    const float sv[7] = {0x1.13708p-41f, 0x1.25007ep+70f, 0x1.dab17ep+75f,
                         -0x1.13108p-40f, -0x1.1c007ep+78f, -0x1.e3177cp-115f, 0x1.1d407ep-94f};
    const float tv[9] = {0x1.19308p-4f, -0x1.44507cp-90f, -0x1.b6c17ep+67f,
                         0x1.c9847ep-100f, -0x1.601c38p+1f, -0x1.e998dcp+0f,
                         0x1.2c566cp+2f, -0x1.2c207ep+39f, -0x1.83717ep-118f};
    for (int c = 0; c < 7; c++)
        s.f[c][0] = sv[c];
    for (int c = 0; c < 9; c++)
        tr.f[c][0] = tv[c];
    const uint32_t zero = 0;
    for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
        for (int q = 0; q < 3; q++) {
            t_hits_fill(&h, 0xA5);
            ptrdiff_t r = q == 0   ? t_tris(im, 1, &s.s, &tr.t, flags, &h.h)
                          : q == 1 ? t_tri_pairs(im, 1, &zero, &zero, 1, &s.s, 1, &tr.t, flags,
                                                 &h.h)
                                   : t_tri_set(im, 1, &s.s, 1, &tr.t, flags, &h.h);
            CHECK(r == 0 && h.f[0][0] == TOI_NO_HIT, "query %d flags %u: returned %td, t = %a "
                  "(feature %u), want a miss", q, flags, r, h.f[0][0], h.feature[0]);
        }
    }
    t_hits_free(&h);
    t_tri_free(&tr);
    t_spheres_free(&s);
}

/* ---- scale: every query commutes with scaling by a power of two ---- */

/* Whether an input of this kind is a length (scaled with the scene) rather than a direction,
   an angle, a time or a coefficient. */
static int is_length(char kind)
{
    return kind == 'p' || kind == 'v' || kind == 'r' || kind == 'd' || kind == 'o' ||
           kind == 'h';
}

/* The batches of the scaling cases: t_count(SC_N) queries (at least 48: some of them hit at
   every scale of the run), sets of SC_M. */
enum { SC_N = 160, SC_M = 24 };

static size_t scale_count(void)
{
    const size_t n = t_count(SC_N);
    return n < 48 ? 48 : n > SC_N ? SC_N : n; /* the arrays hold SC_N (TOI_TEST_SCALE > 1) */
}

/* A batch of n queries (m obstacles) with a hit, as the groups' "no query hits" checks
   need: at the smallest batch (48 queries, qemu's scale) a TOI_TEST_SEED can draw none for
   a family that rarely hits (seed 141 at scale 0.15, triangle pairs); then the next draw,
   up to 8. Seed 0 keeps its first draw. */
static void batch_with_hit(t_batch *b, const t_family *f, size_t n, size_t m, uint64_t seed,
                           const toi_kernels *k)
{
    static float t[SC_N];
    const toi_hits h = {t, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (uint64_t d = 0;; d++) {
        t_batch_make(b, f, n, m, seed ^ (d << 40));
        if (d == 7 || f->call(k, n, &b->a, 0, &h) > 0)
            return;
        t_batch_free(b);
    }
}

/* [*lo, *hi] widened to hold |x| (lo: the smallest nonzero). */
static void widen(float x, float *lo, float *hi)
{
    x = fabsf(x);
    *hi = x > *hi ? x : *hi;
    *lo = x > 0.0f && x < *lo ? x : *lo;
}

/* The smallest nonzero and the largest magnitude of the length inputs of a's arrays. */
static void length_range(const t_family *f, const t_args *a, size_t n, float *lo, float *hi)
{
    *lo = INFINITY, *hi = 0.0f;
    for (int k = 0; k < t_nq(f); k++)
        if (is_length(f->qkind[k]))
            for (size_t i = 0; i < n; i++)
                widen(a->q[k][i], lo, hi);
    for (int s = 0; s < f->nsets; s++)
        for (int k = 0; k < t_nset_arrays(f, s); k++)
            if (is_length(f->skind[s][k]))
                for (size_t i = 0; i < a->nset[s]; i++)
                    widen(a->set[s][k][i], lo, hi);
    for (int k = 0; k < t_nparam(f); k++)
        if (is_length(f->pkind[k]))
            widen(a->param[k], lo, hi);
}

/* The arguments a of family f (n queries, sets of m) with every length input times 2^e, in
   qs and ss. */
static t_args scaled_args(const t_family *f, const t_args *a0, size_t n, size_t m, int e,
                          float (*qs)[SC_N], float (*ss)[T_MAXARR][SC_M])
{
    t_args a = *a0;
    for (int k = 0; k < t_nq(f); k++)
        if (is_length(f->qkind[k])) {
            for (size_t i = 0; i < n; i++)
                qs[k][i] = ldexpf(a0->q[k][i], e);
            a.q[k] = qs[k];
        }
    for (int s = 0; s < f->nsets; s++)
        for (int k = 0; k < t_nset_arrays(f, s); k++)
            if (is_length(f->skind[s][k])) {
                for (size_t i = 0; i < m; i++)
                    ss[s][k][i] = ldexpf(a0->set[s][k][i], e);
                a.set[s][k] = ss[s][k];
            }
    for (int k = 0; k < t_nparam(f); k++)
        if (is_length(f->pkind[k]))
            a.param[k] = ldexpf(a0->param[k], e);
    return a;
}

/* The outputs of one call, every one a query's family can write. */
typedef struct sc_out {
    float f[8][SC_N], x[SC_N];
    uint32_t idx[SC_N];
    uint8_t feat[SC_N];
    float io[T_MAXARR][SC_N]; /* a response's updated arrays */
} sc_out;

static ptrdiff_t sc_call(const t_family *f, const toi_kernels *k, size_t n, const t_args *a,
                         unsigned flags, sc_out *o, int fill)
{
    float *io[T_MAXARR];
    for (int j = 0; j < T_MAXARR; j++)
        io[j] = o->io[j];
    const toi_hits h = {o->f[0], o->f[1], o->f[2], o->f[3], o->f[4], o->f[5], o->f[6],
                        o->f[7], o->idx, o->feat, o->x};
    memset(o->f, fill, sizeof o->f);
    return t_call_io(f, k, n, a, flags, &h, io);
}

/* Whether got (the call on the arguments scaled by 2^e) is ref (the call on the arguments)
   with its lengths scaled by 2^e: the count, and bit for bit t, t_exit, normal, index and
   feature, the point and the depth (or a response's updated arrays) times 2^e, where that is
   a normal float or 0 (a denormal is rounded); the point within ptol instead when ptol > 0.
   Reports the first three differences. */
static int sc_compare(const t_family *f, size_t n, const sc_out *ref, ptrdiff_t rr,
                      const sc_out *got, ptrdiff_t rg, int e, float ptol, const char *how)
{
    int bad = 0;
    CHECK(rg == rr, "%s: %td hits, unscaled %td", how, rg, rr);
    for (int k = 0; k < f->inout && bad < 3; k++)
        for (size_t i = 0; i < n; i++) {
            float want = ldexpf(ref->io[k][i], e);
            if (ref->io[k][i] != 0.0f && fabsf(want) < FLT_MIN)
                continue; /* rounded (or flushed to 0) by the scaling itself */
            if (memcmp(&want, &got->io[k][i], 4) != 0) {
                CHECK(0, "%s, query %zu: array %d is %a, want %a (unscaled %a)", how, i, k,
                      got->io[k][i], want, ref->io[k][i]);
                bad++;
                break;
            }
        }
    for (size_t i = 0; i < n && bad < 3 && !f->inout; i++) {
        int diff = -1;
        for (int o = 0; o < 8 && diff < 0; o++) {
            float want = o >= 4 ? ldexpf(ref->f[o][i], e) : ref->f[o][i];
            if (o >= 4 && ref->f[o][i] != 0.0f && fabsf(want) < FLT_MIN)
                continue; /* the scaled output is a denormal: rounded (or flushed to 0) */
            if (o >= 4 && o < 7 && ptol > 0.0f) {
                if (!(fabsf(got->f[o][i] - want) <= ptol))
                    diff = o;
            } else if (memcmp(&want, &got->f[o][i], 4) != 0) {
                diff = o;
            }
        }
        if (diff < 0 && f->writes_index && ref->idx[i] != got->idx[i])
            diff = 8;
        if (diff < 0 && f->writes_feature && ref->feat[i] != got->feat[i])
            diff = 9;
        if (diff < 0 && f->writes_exit && memcmp(&ref->x[i], &got->x[i], 4) != 0)
            diff = 10;
        if (diff >= 0) {
            static const char *const names[] = {"t", "nx", "ny", "nz", "px", "py", "pz",
                                                "depth", "index", "feature", "t_exit"};
            CHECK(0, "%s, query %zu: %s differs (t %a, scaled %a; %s unscaled %a, scaled %a)",
                  how, i, names[diff], ref->f[0][i], got->f[0][i], names[diff],
                  diff < 8 ? ref->f[diff][i] : 0.0f, diff < 8 ? got->f[diff][i] : 0.0f);
            bad++;
        }
    }
    return bad;
}

/* One family's batch, every length input scaled by 2^e (exactly: every scaled input stays a
   normal float), against the unscaled batch on every backend (sc_compare). Every query
   rescales its relative geometry by a power of two of its own size, so its arithmetic is the
   same at every scale; the mesh query's node test works in world units, but it only skips
   what cannot matter. The response (a row that updates its arrays in place, every one of
   them a length) is linear in the lengths: its updated arrays are the unscaled ones times
   2^e.
   Then the same batch first rounded into the denormals (times 2^-E, E = 128 to 144, and back:
   its inputs keep what the denormals hold of them): scaled by 2^-E again (exactly: the
   denormals themselves) the answers must still be the normal-range answers scaled, so the
   queries' correctness among the denormals rests on the accuracy group's in the normal
   range. Sums and differences of such inputs round alike at both scales, and the queries
   multiply only after their rescale; but the point is computed in world units (B's
   position at t plus n r, or an origin plus an unscaled offset), whose few products round
   there on the absolute grid of 2^-149: it must lie within 2^-144 (32 such units). */
static void case_scale(const void *ctx)
{
    const t_family *f = ctx;
    enum { N = SC_N, M = SC_M };
    const size_t n = scale_count();
    static const int exps[] = {-100, -64, -23, 1, 29, 64, 100};
    static const int dexps[] = {128, 136, 144};
    const toi_kernels *tables[8];
    int ntab = t_kernel_tables(tables, 8);
    t_batch b;
    static float qs[T_MAXARR][N], ss[2][T_MAXARR][M];
    static float qd[T_MAXARR][N], sd[2][T_MAXARR][M], qu[T_MAXARR][N], su[2][T_MAXARR][M];
    static sc_out ref, got;
    batch_with_hit(&b, f, n, M, t_seed ^ t_family_seed(f) ^ 0x5CA1E, tables[0]);
    float lo, hi;
    length_range(f, &b.a, n, &lo, &hi);
    char how[96];
    size_t checked = 0, bad = 0, hits = 0, dchecked = 0, dhits = 0;
    for (int ti = 0; ti < ntab && !bad; ti++)
        for (unsigned flags = 0; flags <= f->flags && !bad; flags++) {
            if (flags & ~f->flags)
                continue;
            ptrdiff_t rr = sc_call(f, tables[ti], n, &b.a, flags, &ref, 0xA5);
            hits += rr > 0 ? (size_t)rr : 0;
            for (size_t x = 0; x < sizeof exps / sizeof exps[0] && !bad; x++) {
                const int e = exps[x];
                if (ldexpf(lo, e) < 0x1p-125f || ldexpf(hi, e) > 0x1p118f)
                    continue;
                const t_args a = scaled_args(f, &b.a, n, M, e, qs, ss);
                ptrdiff_t rg = sc_call(f, tables[ti], n, &a, flags, &got, 0x5A);
                snprintf(how, sizeof how, "backend %d flags %u, scaled by 2^%d", ti, flags, e);
                bad += (size_t)sc_compare(f, n, &ref, rr, &got, rg, e, 0.0f, how);
                checked += n;
            }
            for (size_t x = 0; x < sizeof dexps / sizeof dexps[0] && !bad && !f->world_units;
                 x++) {
                const int e = dexps[x];
                const t_args d = scaled_args(f, &b.a, n, M, -e, qd, sd);
                const t_args u = scaled_args(f, &d, n, M, e, qu, su);
                ptrdiff_t ru = sc_call(f, tables[ti], n, &u, flags, &ref, 0xA5);
                ptrdiff_t rd = sc_call(f, tables[ti], n, &d, flags, &got, 0x5A);
                dhits += ru > 0 ? (size_t)ru : 0;
                snprintf(how, sizeof how, "backend %d flags %u, rounded at 2^-%d", ti, flags,
                         e);
                bad += (size_t)sc_compare(f, n, &ref, ru, &got, rd, -e, 0x1p-144f, how);
                dchecked += n;
            }
        }
    t_batch_free(&b);
    CHECK(hits > 0 && (dhits > 0 || f->world_units), "no query of the batch hits (%zu, "
          "rounded %zu)", hits, dhits);
    if (!bad)
        printf("    %zu scaled queries equal the unscaled ones (of %zu unscaled queries, %zu "
               "hit); %zu among the denormals (%zu hit)\n", checked,
               checked / (sizeof exps / sizeof exps[0]), hits, dchecked, dhits);
}

/* The mesh queries (rows that must answer what another row does: the set queries) on a batch
   scaled down into the denormals, 2^-128 to 2^-144: rounded inputs, through the fuzz check
   (every backend bit for bit the scalar reference, the contract's invariants, and the mesh
   query the set query on the same inputs), T_FUZZ_MAXN queries an input. Motions there are
   too small for their reciprocals (mesh.h, toi_mesh_ray_make): without that case handled, the
   mesh queries missed hits the set queries found. */
static void case_tiny_scene(const void *ctx)
{
    const t_family *f = ctx;
    static const int exps[] = {-128, -132, -136, -140, -144};
    const size_t n = scale_count();
    const toi_kernels *tables[8];
    t_kernel_tables(tables, 8);
    t_batch b;
    batch_with_hit(&b, f, n, SC_M, t_seed ^ t_family_seed(f) ^ 0x7137, tables[0]);
    static float qs[T_MAXARR][SC_N], ss[2][T_MAXARR][SC_M], t[SC_N];
    static uint8_t buf[1 << 16];
    const toi_hits h = {t, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    size_t inputs = 0, hits = 0, bad = 0;
    for (size_t x = 0; x < sizeof exps / sizeof exps[0] && !bad; x++) {
        const t_args a = scaled_args(f, &b.a, n, SC_M, exps[x], qs, ss);
        ptrdiff_t r = f->call(tables[0], n, &a, 0, &h);
        hits += r > 0 ? (size_t)r : 0;
        for (unsigned flags = 0; flags <= f->flags && !bad; flags++) {
            if (flags & ~f->flags)
                continue;
            for (size_t i0 = 0; i0 < n && !bad; i0 += T_FUZZ_MAXN) {
                const size_t cnt = n - i0 < T_FUZZ_MAXN ? n - i0 : T_FUZZ_MAXN;
                t_args c = a;
                for (int k = 0; k < t_nq(f); k++)
                    c.q[k] = a.q[k] + i0;
                for (int k = 0; k < f->nidx; k++)
                    c.idx[k] = a.idx[k] + i0;
                char msg[512];
                size_t len = t_fuzz_encode(f, &c, cnt, flags, 0x1ff, buf, sizeof buf);
                CHECK(len > 0, "cannot encode");
                if (len && t_fuzz_one(f, buf, len, msg, sizeof msg)) {
                    CHECK(0, "at 2^%d, flags %u, queries %zu..: %s", exps[x], flags, i0, msg);
                    bad++;
                }
                inputs++;
            }
        }
    }
    t_batch_free(&b);
    CHECK(hits > 0, "no query hits");
    if (!bad)
        printf("    %zu inputs of up to %d queries at 2^-128 to 2^-144 pass the fuzz check, "
               "the mesh query = the set query (%zu hits, flags 0, scalar)\n", inputs,
               T_FUZZ_MAXN, hits);
}

void group_magnitude(void)
{
    char name[128];
    for (int fi = 0; fi < t_nfamilies; fi++) {
        snprintf(name, sizeof name, "magnitude/%s: any finite magnitude, every backend",
                 t_families[fi].name);
        t_run(name, case_any_magnitude, &t_families[fi]);
        snprintf(name, sizeof name, "magnitude/%s: scaled by powers of two, every backend",
                 t_families[fi].name);
        t_run(name, case_scale, &t_families[fi]);
        if (t_families[fi].equals) {
            snprintf(name, sizeof name, "magnitude/%s: a scene among the denormals, every "
                     "backend", t_families[fi].name);
            t_run(name, case_tiny_scene, &t_families[fi]);
        }
    }
    for (int i = 0; i < t_nimpls; i++) {
        snprintf(name, sizeof name, "magnitude/sphere range edges/%s", t_impls[i].name);
        t_run(name, case_sphere_range, &t_impls[i]);
        snprintf(name, sizeof name, "magnitude/plane range edges/%s", t_impls[i].name);
        t_run(name, case_plane_range, &t_impls[i]);
        snprintf(name, sizeof name, "magnitude/triangle edge 2^-40 of the query/%s",
                 t_impls[i].name);
        t_run(name, case_tiny_edge, &t_impls[i]);
        snprintf(name, sizeof name, "magnitude/sliver 2^75 away, passed at 2^75/%s",
                 t_impls[i].name);
        t_run(name, case_far_sliver, &t_impls[i]);
    }
}
