/* test_respond.c - collision response: hand cases, batch sizes, bad calls, and every backend
   against the scalar reference bit for bit on random input */
#include "test.h"

#include <math.h>
#include <stdlib.h>

#define NANF __builtin_nanf("")
#define NM 9 /* motion arrays: x y z vx vy vz ux uy uz */
#define NH 5 /* hit arrays read: t nx ny nz depth */

static const char *const mot_names[NM] = {"x", "y", "z", "vx", "vy", "vz", "ux", "uy", "uz"};

/* Motion and hit arrays, each one float past an aligned address and padded on both sides so
   writes outside [0, n) show up in the sentinel. */
typedef struct t_mot {
    float *f[NM];
    float *h[NH];
    size_t n;
} t_mot;

static void mot_alloc(t_mot *b, size_t n)
{
    b->n = n;
    for (int k = 0; k < NM + NH; k++) {
        float *p = malloc((n + 8) * sizeof *p + 64);
        if (!p) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        memset(p, 0xA5, (n + 8) * sizeof *p + 64);
        if (k < NM)
            b->f[k] = p + 5; /* 4 sentinel floats before, one float off alignment */
        else
            b->h[k - NM] = p + 5;
    }
}

static void mot_free(t_mot *b)
{
    for (int k = 0; k < NM; k++)
        free(b->f[k] - 5);
    for (int k = 0; k < NH; k++)
        free(b->h[k] - 5);
}

static void mot_fill(t_mot *b)
{
    for (int k = 0; k < NM; k++)
        memset(b->f[k] - 4, 0xA5, (b->n + 8) * sizeof(float));
}

/* The library's view of arrays starting at element off; with or without the velocity. */
static toi_motion mot_view(const t_mot *b, size_t off, int vel)
{
    toi_motion m = {b->f[0] + off, b->f[1] + off, b->f[2] + off, b->f[3] + off,
                    b->f[4] + off, b->f[5] + off, NULL, NULL, NULL};
    if (vel)
        m.ux = b->f[6] + off, m.uy = b->f[7] + off, m.uz = b->f[8] + off;
    return m;
}

static toi_hits hits_view(const t_mot *b, size_t off, int depth)
{
    toi_hits h = {b->h[0] + off, b->h[1] + off, b->h[2] + off, b->h[3] + off,
                  NULL, NULL, NULL, depth ? b->h[4] + off : NULL, NULL, NULL, NULL};
    return h;
}

typedef struct resp_case {
    const char *name;
    float s[NM];  /* x y z vx vy vz ux uy uz */
    float h[NH];  /* t nx ny nz depth */
    float e, f;   /* restitution, friction */
    int hit;      /* counted (hit and updated) */
    int keep;     /* left unchanged (want ignored) */
    float want[NM];
} resp_case;

static const resp_case cases[] = {
    {"miss", {1, 2, 3, 4, 5, 6, 7, 8, 9}, {INFINITY, 0, 0, 0, 0}, 1, 0, 0, 0,
     {5, 7, 9, 0, 0, 0, 7, 8, 9}},
    {"miss with a NaN normal and depth", {1, 2, 3, 4, 5, 6, 7, 8, 9},
     {INFINITY, NANF, NANF, NANF, NANF}, 1, 0, 0, 0, {5, 7, 9, 0, 0, 0, 7, 8, 9}},
    {"bounce", {1, 2, 5, 0, 0, -8, 0, 0, -16}, {0.5f, 0, 0, 1, 0}, 1, 0, 1, 0,
     {1, 2, 1, 0, 0, 4, 0, 0, 16}},
    {"restitution and friction", {0, 0, 5, 4, 0, -8, 8, 0, -16}, {0.5f, 0, 0, 1, 0}, 0.5f,
     0.25f, 1, 0, {2, 0, 1, 1.5f, 0, 2, 6, 0, 8}},
    {"inelastic, full friction", {0, 0, 5, 4, 0, -8, 8, 0, -16}, {0.5f, 0, 0, 1, 0}, 0, 1, 1,
     0, {2, 0, 1, 0, 0, 0, 0, 0, 0}},
    {"sideways normal", {5, 0, 0, -8, 2, 0, -8, 2, 0}, {0.5f, 1, 0, 0, 0}, 1, 0, 1, 0,
     {1, 1, 0, 4, 1, 0, 8, 2, 0}},
    {"initial overlap pushed out", {0, 0, 0.5f, 0, 0, -1, 0, 0, -2}, {0, 0, 0, 1, 0.5f}, 1, 0,
     1, 0, {0, 0, 1, 0, 0, 1, 0, 0, 2}},
    {"negative depth counts as 0", {0, 0, 0.5f, 0, 0, -1, 0, 0, -2}, {0, 0, 0, 1, -3}, 1, 0, 1,
     0, {0, 0, 0.5f, 0, 0, 1, 0, 0, 2}},
    {"separating contact kept", {0, 0, 1, 1, 0, 2, 1, 0, 2}, {0, 0, 0, 1, 0}, 1, 0, 1, 0,
     {0, 0, 1, 1, 0, 2, 1, 0, 2}},
    {"sliding contact kept", {0, 0, 1, 3, 0, 0, 3, 0, 0}, {0, 0, 0, 1, 0}, 1, 0.5f, 1, 0,
     {0, 0, 1, 3, 0, 0, 3, 0, 0}},
    {"touch at t = 1", {0, 0, 9, 0, 0, -8, 0, 0, -8}, {1, 0, 0, 1, 0}, 1, 0, 1, 0,
     {0, 0, 1, 0, 0, -0.0f, 0, 0, 8}},
    {"t = -0 is a hit", {0, 0, 1, 0, 0, -2, 0, 0, -2}, {-0.0f, 0, 0, 1, 0}, 1, 0, 1, 0,
     {0, 0, 1, 0, 0, 2, 0, 0, 2}},
    {"t above 1 is a miss", {0, 0, 1, 0, 0, -2, 0, 0, -2}, {0x1.000002p0f, 0, 0, 1, 0}, 1, 0,
     0, 0, {0, 0, -1, 0, 0, 0, 0, 0, -2}},
    {"negative t is a miss", {0, 0, 1, 0, 0, -2, 0, 0, -2}, {-0.25f, 0, 0, 1, 0}, 1, 0, 0, 0,
     {0, 0, -1, 0, 0, 0, 0, 0, -2}},
    {"NaN t is a miss", {0, 0, 1, 0, 0, -2, 0, 0, -2}, {NANF, 0, 0, 1, 0}, 1, 0, 0, 0,
     {0, 0, -1, 0, 0, 0, 0, 0, -2}},
    {"NaN position kept", {1, NANF, 3, 4, 5, 6, 7, 8, 9}, {INFINITY, 0, 0, 0, 0}, 1, 0, 0, 1,
     {0}},
    {"Inf displacement kept", {1, 2, 3, 4, -INFINITY, 6, 7, 8, 9}, {INFINITY, 0, 0, 0, 0}, 1,
     0, 0, 1, {0}},
    {"NaN normal on a hit kept", {0, 0, 5, 0, 0, -8, 0, 0, -8}, {0.5f, 0, NANF, 1, 0}, 1, 0, 0,
     1, {0}},
    {"NaN depth on a hit kept", {0, 0, 5, 0, 0, -8, 0, 0, -8}, {0.5f, 0, 0, 1, NANF}, 1, 0, 0,
     1, {0}},
    {"Inf velocity kept", {0, 0, 5, 0, 0, -8, 0, INFINITY, -8}, {0.5f, 0, 0, 1, 0}, 1, 0, 0, 1,
     {0}},
    {"overflow kept", {3e38f, 0, 0, 3e38f, 0, 0, 0, 0, 0}, {INFINITY, 0, 0, 0, 0}, 1, 0, 0, 1,
     {0}},
};
#define NCASE (sizeof cases / sizeof cases[0])

/* Expected state of a case, with or without the velocity arrays (without them, a case kept
   only because of its velocity is updated like any other). */
static void case_want(const resp_case *c, int vel, float want[NM], int *hit)
{
    int velocity_only = c->name[0] == 'I' && c->name[4] == 'v'; /* "Inf velocity kept" */
    if (!vel && velocity_only) {
        static const float upd[NM] = {0, 0, 1, 0, 0, 4, 0, 0, 0};
        memcpy(want, upd, sizeof upd);
        *hit = 1;
    } else if (c->keep) {
        memcpy(want, c->s, sizeof c->s);
        *hit = 0;
    } else {
        memcpy(want, c->want, sizeof c->want);
        *hit = c->hit;
    }
}

static void set_lane(t_mot *b, size_t i, const resp_case *c)
{
    for (int k = 0; k < NM; k++)
        b->f[k][i] = c->s[k];
    for (int k = 0; k < NH; k++)
        b->h[k][i] = c->h[k];
}

/* Each case in a batch of 2 T_MAXW + 3 lanes (two vectors of every width and a tail),
   alternating with plain misses, with and without velocity and depth. */
static void case_hand(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t n = 2 * T_MAXW + 3;
    t_mot b;
    mot_alloc(&b, n);
    for (size_t c = 0; c < NCASE; c++)
        for (int vel = 0; vel < 2; vel++) {
            mot_fill(&b);
            size_t want_hits = 0;
            for (size_t i = 0; i < n; i++)
                set_lane(&b, i, i % 2 ? &cases[0] : &cases[c]);
            toi_motion m = mot_view(&b, 0, vel);
            toi_hits h = hits_view(&b, 0, 1);
            ptrdiff_t r = t_respond(im, n, &m, &h, cases[c].e, cases[c].f);
            for (size_t i = 0; i < n; i++) {
                const resp_case *lc = i % 2 ? &cases[0] : &cases[c];
                float want[NM];
                int hit;
                case_want(lc, vel, want, &hit);
                want_hits += (size_t)hit;
                for (int k = 0; k < (vel ? NM : 6); k++)
                    CHECK(float_bits(b.f[k][i]) == float_bits(want[k]),
                          "%s%s lane %zu: %s = %.9g, want %.9g", lc->name,
                          vel ? "" : " (no velocity)", i, mot_names[k], b.f[k][i], want[k]);
                if (!vel)
                    for (int k = 6; k < NM; k++)
                        CHECK(float_bits(b.f[k][i]) == float_bits(lc->s[k]), "%s: %s written",
                              lc->name, mot_names[k]);
            }
            CHECK(r == (ptrdiff_t)want_hits, "%s: returned %td, want %zu", cases[c].name, r,
                  want_hits);
        }
    /* depth NULL reads as 0: the overlap case is then not pushed out */
    mot_fill(&b);
    set_lane(&b, 0, &cases[6]);
    toi_motion m = mot_view(&b, 0, 1);
    toi_hits h = hits_view(&b, 0, 0);
    CHECK(t_respond(im, 1, &m, &h, 1, 0) == 1, "depth NULL: not a hit");
    CHECK(b.f[2][0] == 0.5f && b.f[5][0] == 1.0f, "depth NULL: z = %g vz = %g", b.f[2][0],
          b.f[5][0]);
    mot_free(&b);
}

/* Every batch size from 1 to 3 * T_MAXW + 1 at 4 misalignments, lanes cycling through the cases
   that share e = 1, f = 0: every lane right, nothing outside [off, off + n) written. */
static void case_sizes(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t maxn = 3 * T_MAXW + 1;
    size_t pick[NCASE], npick = 0;
    for (size_t c = 0; c < NCASE; c++)
        if (cases[c].e == 1 && cases[c].f == 0)
            pick[npick++] = c;
    t_mot b;
    mot_alloc(&b, maxn + 4);
    for (size_t off = 0; off < 4; off++)
        for (size_t n = 1; n <= maxn; n++) {
            mot_fill(&b);
            size_t want_hits = 0;
            for (size_t i = 0; i < n; i++)
                set_lane(&b, off + i, &cases[pick[(i + n) % npick]]);
            toi_motion m = mot_view(&b, off, 1);
            toi_hits h = hits_view(&b, off, 1);
            ptrdiff_t r = t_respond(im, n, &m, &h, 1, 0);
            for (size_t i = 0; i < n; i++) {
                const resp_case *lc = &cases[pick[(i + n) % npick]];
                float want[NM];
                int hit;
                case_want(lc, 1, want, &hit);
                want_hits += (size_t)hit;
                for (int k = 0; k < NM; k++)
                    CHECK(float_bits(b.f[k][off + i]) == float_bits(want[k]),
                          "n %zu off %zu lane %zu (%s): %s = %.9g, want %.9g", n, off, i,
                          lc->name, mot_names[k], b.f[k][off + i], want[k]);
            }
            CHECK(r == (ptrdiff_t)want_hits, "n %zu off %zu: returned %td, want %zu", n, off, r,
                  want_hits);
            for (int k = 0; k < NM; k++) {
                CHECK(float_bits(b.f[k][off + n]) == 0xA5A5A5A5u, "n %zu: %s written past end",
                      n, mot_names[k]);
                CHECK(float_bits(b.f[k][(ptrdiff_t)off - 1]) == 0xA5A5A5A5u,
                      "n %zu: %s written before start", n, mot_names[k]);
            }
        }
    mot_free(&b);
}

/* Bad calls: TOI_EINVAL and nothing written; n = 0 returns 0 and writes nothing. */
static void case_bad_calls(const void *ctx)
{
    const t_impl *im = ctx;
    t_mot b;
    mot_alloc(&b, 4);
    mot_fill(&b);
    for (size_t i = 0; i < 4; i++)
        for (int k = 0; k < NH; k++)
            b.h[k][i] = cases[2].h[k];
    toi_motion m = mot_view(&b, 0, 1), bad;
    toi_hits h = hits_view(&b, 0, 1), badh;
    CHECK(t_respond(im, 4, &m, &h, -0.0625f, 0) == TOI_EINVAL, "e < 0");
    CHECK(t_respond(im, 4, &m, &h, 0x1.000002p0f, 0) == TOI_EINVAL, "e > 1");
    CHECK(t_respond(im, 4, &m, &h, NANF, 0) == TOI_EINVAL, "e NaN");
    CHECK(t_respond(im, 4, &m, &h, INFINITY, 0) == TOI_EINVAL, "e Inf");
    CHECK(t_respond(im, 4, &m, &h, 1, -1) == TOI_EINVAL, "f < 0");
    CHECK(t_respond(im, 4, &m, &h, 1, 2) == TOI_EINVAL, "f > 1");
    CHECK(t_respond(im, 4, &m, &h, 1, NANF) == TOI_EINVAL, "f NaN");
    CHECK(t_respond(im, 0, &m, &h, 1, NANF) == TOI_EINVAL, "f NaN, n = 0");
    CHECK(t_respond(im, 4, NULL, &h, 1, 0) == TOI_EINVAL, "NULL motion");
    CHECK(t_respond(im, 4, &m, NULL, 1, 0) == TOI_EINVAL, "NULL hits");
    for (int k = 0; k < 6; k++) {
        bad = m;
        ((float **)&bad)[k] = NULL;
        CHECK(t_respond(im, 4, &bad, &h, 1, 0) == TOI_EINVAL, "NULL %s", mot_names[k]);
    }
    for (int k = 6; k < NM; k++) {
        bad = m;
        ((float **)&bad)[k] = NULL;
        CHECK(t_respond(im, 4, &bad, &h, 1, 0) == TOI_EINVAL, "only %s NULL", mot_names[k]);
        bad = mot_view(&b, 0, 0);
        ((float **)&bad)[k] = b.f[k];
        CHECK(t_respond(im, 4, &bad, &h, 1, 0) == TOI_EINVAL, "only %s given", mot_names[k]);
    }
    for (int k = 0; k < 4; k++) {
        badh = h;
        if (k == 0) badh.t = NULL;
        if (k == 1) badh.nx = NULL;
        if (k == 2) badh.ny = NULL;
        if (k == 3) badh.nz = NULL;
        CHECK(t_respond(im, 4, &m, &badh, 1, 0) == TOI_EINVAL, "NULL hits field %d", k);
    }
    CHECK(t_respond(im, 0, &m, &h, 1, 0) == 0, "n = 0");
    CHECK(t_respond(im, 0, NULL, NULL, 0, 1) == 0, "n = 0 with NULL pointers");
    for (int k = 0; k < NM; k++)
        for (size_t i = 0; i < 5; i++)
            CHECK(float_bits(b.f[k][i]) == 0xA5A5A5A5u, "%s[%zu] written by a rejected call",
                  mot_names[k], i);
    mot_free(&b);
}

/* ---- differential: random states and hits, every backend against the reference ---- */

static float rand_special(rng *g)
{
    static const float sp[] = {NANF, INFINITY, -INFINITY, 3e38f, -3e38f, 0.0f, -0.0f, 1e-40f};
    return sp[rng_below(g, sizeof sp / sizeof sp[0])];
}

static float rand_coord(rng *g, float scale)
{
    uint32_t k = rng_below(g, 256);
    if (k == 0)
        return rand_special(g);
    if (k < 8) /* on the grid of small integers, where results are often exact and signed zeros
                  appear */
        return (float)((int)rng_below(g, 9) - 4);
    return rng_range(g, -scale, scale);
}

static void rand_hit(rng *g, float h[NH])
{
    uint32_t k = rng_below(g, 100);
    h[0] = k < 50 ? rng_unit(g) : k < 58 ? 0.0f : k < 62 ? 1.0f : k < 64 ? -0.0f
         : k < 84 ? TOI_NO_HIT : k < 88 ? NANF : k < 92 ? 0x1.000002p0f
         : k < 96 ? -0x1p-20f : rng_range(g, -4, 4);
    k = rng_below(g, 100);
    if (k < 15) { /* an axis */
        h[1] = h[2] = h[3] = 0.0f;
        h[1 + rng_below(g, 3)] = rng_below(g, 2) ? 1.0f : -1.0f;
    } else if (k < 97) { /* a random direction, unit to rounding */
        float x = rng_range(g, -1, 1), y = rng_range(g, -1, 1), z = rng_range(g, -1, 1);
        float l = sqrtf((x * x + y * y) + z * z);
        if (!(l > 0.01f))
            x = 1, l = 1;
        h[1] = x / l, h[2] = y / l, h[3] = z / l;
    } else { /* not a direction */
        h[1] = rand_special(g), h[2] = rand_coord(g, 1), h[3] = rand_coord(g, 1);
    }
    k = rng_below(g, 100);
    h[4] = k < 70 ? 0.0f : k < 90 ? rng_range(g, 0, 2) : k < 95 ? -rng_unit(g)
         : rand_special(g);
}

typedef struct diff_stats {
    size_t hits, kept;
} diff_stats;

static void case_differential(const void *ctx)
{
    const t_impl *im = ctx;
    const size_t total = t_count(1000000), maxn = 1000;
    t_mot in, ref, got;
    mot_alloc(&in, maxn + 4);
    mot_alloc(&ref, maxn + 4);
    mot_alloc(&got, maxn + 4);
    rng g = t_rng(0x5eed0006u);
    size_t done = 0, hits = 0, kept = 0, fails = 0;
    while (done < total && fails < 5) {
        size_t n = 1 + rng_below(&g, (uint32_t)maxn), off = rng_below(&g, 4);
        if (n > total - done)
            n = total - done;
        int vel = rng_below(&g, 4) != 0, depth = rng_below(&g, 4) != 0;
        uint32_t ek = rng_below(&g, 8), fk = rng_below(&g, 8);
        float e = ek == 0 ? 0.0f : ek == 1 ? 1.0f : rng_unit(&g);
        float f = fk == 0 ? 0.0f : fk == 1 ? 1.0f : rng_unit(&g);
        mot_fill(&in);
        for (size_t i = 0; i < n; i++) {
            float h[NH];
            for (int k = 0; k < 3; k++)
                in.f[k][off + i] = rand_coord(&g, 100);
            for (int k = 3; k < NM; k++)
                in.f[k][off + i] = rand_coord(&g, 20);
            rand_hit(&g, h);
            for (int k = 0; k < NH; k++)
                in.h[k][off + i] = h[k];
        }
        for (int k = 0; k < NM; k++) {
            memcpy(ref.f[k] - 4, in.f[k] - 4, (maxn + 12) * sizeof(float));
            memcpy(got.f[k] - 4, in.f[k] - 4, (maxn + 12) * sizeof(float));
        }
        toi_motion mr = mot_view(&ref, off, vel), mg = mot_view(&got, off, vel);
        toi_hits h = hits_view(&in, off, depth);
        ptrdiff_t rr = toi_respond_on(&toi_kernels_scalar, n, &mr, &h, e, f);
        ptrdiff_t rg = t_respond(im, n, &mg, &h, e, f);
        if (rr != rg) {
            CHECK(0, "returned %td, reference %td (n %zu)", rg, rr, n);
            fails++;
        }
        for (int k = 0; k < NM; k++)
            for (ptrdiff_t i = -4; i < (ptrdiff_t)maxn + 4; i++) { /* sentinels included */
                float a = ref.f[k][i], b = got.f[k][i];
                if (float_bits(a) != float_bits(b)) {
                    ptrdiff_t j = i - (ptrdiff_t)off;
                    CHECK(0, "n %zu lane %td: %s = %a, reference %a (t %a n %a %a %a d %a, e %a "
                          "f %a)", n, j, mot_names[k], b, a, in.h[0][i], in.h[1][i],
                          in.h[2][i], in.h[3][i], in.h[4][i], e, f);
                    fails++;
                    break;
                }
            }
        for (size_t i = 0; i < n; i++)
            kept += float_bits(ref.f[0][off + i]) == float_bits(in.f[0][off + i]) &&
                    float_bits(ref.f[3][off + i]) == float_bits(in.f[3][off + i]);
        hits += (size_t)rr;
        done += n;
    }
    /* the input must reach both sides of every choice, or the comparison proves little */
    CHECK(hits > done / 4 && kept > done / 100 && kept < done / 4,
          "weak input: %zu hits, %zu kept of %zu", hits, kept, done);
    mot_free(&in);
    mot_free(&ref);
    mot_free(&got);
}

void group_respond(void)
{
    char name[128];
    for (int i = 0; i < t_nimpls; i++) {
        const t_impl *im = &t_impls[i];
        snprintf(name, sizeof name, "respond/hand cases/%s", im->name);
        t_run(name, case_hand, im);
        snprintf(name, sizeof name, "respond/batch sizes and alignment/%s", im->name);
        t_run(name, case_sizes, im);
        snprintf(name, sizeof name, "respond/bad calls/%s", im->name);
        t_run(name, case_bad_calls, im);
    }
    for (int i = 1; i < t_nimpls; i++) {
        snprintf(name, sizeof name, "respond/differential/%s", t_impls[i].name);
        t_run(name, case_differential, &t_impls[i]);
    }
}
