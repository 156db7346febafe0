/* capsules.c - toi_bench_capsules: the capsule queries (docs/capsules.md) on every backend:
   capsule-sphere pairs, capsule-plane and capsule-capsule pairs (and the latter as a pair
   list over the bodies: list_make), batches in cache (4096
   queries, the same arrays every repetition) and in DRAM (2^21 queries), t only and all
   outputs; ns per query (the best of several repetitions: compare ratios within one run),
   the ratio to the scalar reference, and the hit fraction. Every backend's outputs are
   checked bit for bit against the scalar reference's before timing. Scenes: capsules of
   length 0.25 to 1 and radius 0.1 to 0.5 (spheres: radius 0.1 to 0.8) at random in a box of
   side 4, the other body (the sphere's centre at capsule b's p0) within 2.5 per axis of the
   capsule's p0, the capsule displaced toward it, give or take; the plane z = -1; a triangle
   of size about 2 around that body's start (capsule-triangle). The hit fraction is printed.
   Peers on the in-cache capsule-triangle pairs: the textbook capsule-triangle sweep
   (bench/textbook_capsule.c: array of structs, one pair at a time, floats) and, when built
   with Bullet, btContinuousConvexCollision of a btCapsuleShape against a btTriangleShape;
   for each, ns per pair, how often it misses a contact toi reports, its hits where toi has
   none and the largest t difference where both hit. Then capsules against one set of 64
   triangles near their paths (set_bench). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct caps {
    float *f[10];
    toi_capsules c;
} caps;

static void caps_make(caps *c, size_t n, bench_rng *r, float zlo, float zhi)
{
    for (int k = 0; k < 10; k++)
        c->f[k] = bench_falloc(n);
    for (size_t i = 0; i < n; i++) {
        float p[3] = {rng_range(r, -2, 2), rng_range(r, -2, 2), rng_range(r, zlo, zhi)};
        float d[3] = {rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1)};
        float len = rng_range(r, 0.5f, 2.0f) * 0.5f;
        for (int k = 0; k < 3; k++) {
            c->f[k][i] = p[k];
            c->f[3 + k][i] = p[k] + len * d[k];
            c->f[6 + k][i] = rng_range(r, -1.5f, 1.5f);
        }
        c->f[9][i] = rng_range(r, 0.1f, 0.5f);
    }
    c->c = (toi_capsules){c->f[0], c->f[1], c->f[2], c->f[3], c->f[4],
                          c->f[5], c->f[6], c->f[7], c->f[8], c->f[9]};
}

typedef struct sph {
    float *f[7];
    toi_spheres s;
} sph;

/* Moves capsules b to within 2.5 of capsules a (per axis), so pairs meet often. */
static void caps_near(caps *b, const caps *a, size_t n, bench_rng *r)
{
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            float d = a->f[k][i] + rng_range(r, -2.5f, 2.5f) - b->f[k][i];
            b->f[k][i] += d, b->f[3 + k][i] += d;
        }
}

static void sph_make(sph *s, size_t n, bench_rng *r, const caps *a)
{
    for (int k = 0; k < 7; k++)
        s->f[k] = bench_falloc(n);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            s->f[k][i] = a->f[k][i] + rng_range(r, -2.5f, 2.5f);
            s->f[3 + k][i] = rng_range(r, -1.5f, 1.5f);
        }
        s->f[6][i] = rng_range(r, 0.1f, 0.8f);
    }
    s->s = (toi_spheres){s->f[0], s->f[1], s->f[2], s->f[3], s->f[4], s->f[5], s->f[6]};
}

typedef struct outs {
    float *f[8];
    toi_hits all, tonly;
} outs;

static void outs_make(outs *o, size_t n)
{
    for (int k = 0; k < 8; k++)
        o->f[k] = bench_falloc(n);
    o->all = (toi_hits){o->f[0], o->f[1], o->f[2], o->f[3], o->f[4], o->f[5], o->f[6],
                        o->f[7], NULL, NULL, NULL};
    o->tonly = (toi_hits){o->f[0], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
}

enum { QCS, QCP, QCC, QCL, QCT, NQ };
static const char *const qname[NQ] = {"capsule-sphere", "capsule-plane", "capsule-capsule",
                                      "capsule list", "capsule-triangle"};

typedef struct tris {
    float *f[9];
    toi_triangles t;
} tris;

/* A triangle of size about 2 around each of the points c (x, y, z arrays). */
static void tris_make(tris *t, size_t n, bench_rng *r, float *const c[3])
{
    for (int k = 0; k < 9; k++)
        t->f[k] = bench_falloc(n);
    for (size_t i = 0; i < n; i++)
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++)
                t->f[3 * v + k][i] = c[k][i] + rng_range(r, -1.2f, 1.2f);
    t->t = (toi_triangles){t->f[0], t->f[1], t->f[2], t->f[3], t->f[4],
                           t->f[5], t->f[6], t->f[7], t->f[8]};
}

typedef struct scene {
    caps a, b;
    sph s;
    tris t;
    toi_plane plane;
    caps l;              /* the pair list's bodies: a's capsules, then b's */
    uint32_t *ia, *ib;   /* its pairs: the capsule-capsule pairs, shuffled */
    size_t nl;           /* bodies in l */
} scene;

/* The pair list's scene: bodies a[0..n) then b[0..n), and pair k = (a[p(k)], b[p(k)]) with p
   a permutation within each block of 4,096 pairs: the capsule-capsule pairs (the same work
   and hits) in shuffled order, so its time over capsule-capsule's is the cost of the indices
   and of gathering from the bodies (in cache: the first block's 8,192 bodies). */
static void list_make(scene *sc, size_t n, bench_rng *r)
{
    sc->nl = 2 * n;
    for (int k = 0; k < 10; k++) {
        sc->l.f[k] = bench_falloc(2 * n);
        memcpy(sc->l.f[k], sc->a.f[k], n * sizeof(float));
        memcpy(sc->l.f[k] + n, sc->b.f[k], n * sizeof(float));
    }
    float *const *f = sc->l.f;
    sc->l.c = (toi_capsules){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]};
    sc->ia = malloc(n * sizeof *sc->ia);
    sc->ib = malloc(n * sizeof *sc->ib);
    if (!sc->ia || !sc->ib) {
        fprintf(stderr, "toi_bench_capsules: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++)
        sc->ia[i] = (uint32_t)i;
    for (size_t b0 = 0; b0 < n; b0 += 4096) {
        size_t m = n - b0 < 4096 ? n - b0 : 4096;
        for (size_t i = m - 1; i > 0; i--) { /* Fisher-Yates within the block */
            size_t j = (size_t)rng_range(r, 0.0f, (float)(i + 1));
            j = j > i ? i : j;
            uint32_t t = sc->ia[b0 + i];
            sc->ia[b0 + i] = sc->ia[b0 + j], sc->ia[b0 + j] = t;
        }
    }
    for (size_t i = 0; i < n; i++)
        sc->ib[i] = (uint32_t)n + sc->ia[i];
}

static ptrdiff_t run(int q, const scene *sc, size_t off, size_t n, const toi_hits *o)
{
    toi_capsules a = sc->a.c, b = sc->b.c;
    toi_spheres s = sc->s.s;
    toi_triangles t = sc->t.t;
    for (int k = 0; k < 9; k++)
        ((const float **)&t)[k] += off;
    for (int k = 0; k < 10; k++) {
        ((const float **)&a)[k] += off;
        ((const float **)&b)[k] += off;
    }
    for (int k = 0; k < 7; k++)
        ((const float **)&s)[k] += off;
    switch (q) {
    case QCS: return toi_sweep_capsules_spheres(n, &a, &s, 0, o);
    case QCP: return toi_sweep_capsules_plane(n, &a, &sc->plane, 0, o);
    case QCT: return toi_sweep_capsules_triangles(n, &a, &t, 0, o);
    case QCL:
        return toi_sweep_capsule_pairs(n, sc->ia + off, sc->ib + off, sc->nl, &sc->l.c, 0, o);
    default: return toi_sweep_capsules(n, &a, &b, 0, o);
    }
}

/* best-of-reps ns per query over the whole range [0, total) in batches of n */
static double time_q(int q, const scene *sc, size_t total, size_t n, const toi_hits *o,
                     int reps)
{
    double best = 1e300;
    for (int rep = 0; rep < reps; rep++) {
        double t0 = bench_now_ns();
        for (size_t off = 0; off < total; off += n) {
            toi_hits oo = *o;
            oo.t += off;
            if (oo.nx) {
                oo.nx += off, oo.ny += off, oo.nz += off;
                oo.px += off, oo.py += off, oo.pz += off, oo.depth += off;
            }
            run(q, sc, off, n, &oo);
        }
        double dt = (bench_now_ns() - t0) / (double)total;
        best = dt < best ? dt : best;
    }
    return best;
}

/* Capsules against one set of 64 triangles near their paths (triangles of size about 1 in the
   box [-1.5, 1.5]^3 that the capsules, starting within it, cross): ns per capsule and per
   triangle on every backend, outputs checked against the scalar reference first. */
static int set_bench(int quick, double *avx2_per_tri)
{
    enum { NT = 64 };
    const size_t n = 1024;
    bench_rng r = {0x5E7B};
    caps c;
    caps_make(&c, n, &r, -1.5f, 1.5f);
    tris t;
    float *ctr[3] = {bench_falloc(NT), bench_falloc(NT), bench_falloc(NT)};
    for (size_t j = 0; j < NT; j++)
        for (int k = 0; k < 3; k++)
            ctr[k][j] = rng_range(&r, -1.5f, 1.5f);
    tris_make(&t, NT, &r, ctr);
    outs ref, got;
    outs_make(&ref, n);
    outs_make(&got, n);
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_AVX512, TOI_BACKEND_NEON};
    toi_set_backend(TOI_BACKEND_SCALAR);
    ptrdiff_t nh = toi_sweep_capsules_triangle_set(n, &c.c, NT, &t.t, 0, &ref.all);
    int bad = 0;
    double base = 0;
    for (size_t b = 0; b < sizeof all / sizeof all[0]; b++) {
        if (toi_set_backend(all[b]) != TOI_OK)
            continue;
        ptrdiff_t gh = toi_sweep_capsules_triangle_set(n, &c.c, NT, &t.t, 0, &got.all);
        for (int k = 0; k < 8; k++)
            if (memcmp(ref.f[k], got.f[k], n * sizeof(float)) != 0 || gh != nh)
                bad = 1;
        double best = 1e300;
        for (int rep = 0; rep < (quick ? 2 : 9); rep++) {
            double t0 = bench_now_ns();
            toi_sweep_capsules_triangle_set(n, &c.c, NT, &t.t, 0, &got.tonly);
            double dt = (bench_now_ns() - t0) / (double)n;
            best = dt < best ? dt : best;
        }
        if (all[b] == TOI_BACKEND_SCALAR)
            base = best;
        if (all[b] == TOI_BACKEND_AVX2)
            *avx2_per_tri = best / NT;
        printf("%-16s %-7s %9.1f ns per capsule, %6.2f per triangle, %4.1fx scalar, %5.1f%% hit\n",
               "capsule-set 64", toi_backend_name(all[b]), best, best / NT, base / best,
               100.0 * (double)nh / (double)n);
    }
    toi_set_backend(TOI_BACKEND_AUTO);
    return bad;
}

/* A peer's agreement with toi's t on the same pairs: misses of toi's contacts, hits where toi
   has none, the largest |t difference| where both hit. */
static void agreement(const char *who, const float *toi_t, const float *peer_t, size_t n)
{
    size_t th = 0, missed = 0, extra = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        int ht = toi_t[i] <= 1.0f, hp = peer_t[i] <= 1.0f;
        th += (size_t)ht, missed += (size_t)(ht && !hp), extra += (size_t)(!ht && hp);
        double d = (double)toi_t[i] - (double)peer_t[i];
        d = d < 0 ? -d : d;
        if (ht && hp && d > worst)
            worst = d;
    }
    printf("  %s: misses %zu of toi's %zu contacts (%.1f%%), %zu hits where toi has none, "
           "largest |t difference| %.2g where both hit\n", who, missed, th,
           th ? 100.0 * (double)missed / (double)th : 0.0, extra, worst);
}

/* The textbook capsule-triangle sweep on the in-cache capsule-triangle pairs (its input
   converted to arrays of structs once, outside the timing). */
static void textbook_peer(const scene *sc, size_t n, outs *o, int reps)
{
    toi_set_backend(TOI_BACKEND_AUTO);
    run(QCT, sc, 0, n, &o->tonly);
    tb_capsule *c = malloc(n * sizeof *c);
    tb_tri *tri = malloc(n * sizeof *tri);
    float *tt = bench_falloc(n);
    if (!c || !tri) {
        fprintf(stderr, "toi_bench_capsules: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            c[i].p0[k] = sc->a.f[k][i];
            c[i].p1[k] = sc->a.f[3 + k][i];
            c[i].v[k] = sc->a.f[6 + k][i];
            for (int j = 0; j < 3; j++)
                tri[i].v[j][k] = sc->t.f[3 * j + k][i];
        }
        c[i].r = sc->a.f[9][i];
    }
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ns();
        textbook_capsules_triangles(n, c, tri, tt);
        double dt = (bench_now_ns() - t0) / (double)n;
        best = dt < best ? dt : best;
    }
    printf("%-16s %-7s %6.2f %5s\n", "capsule-triangle", "textbk", best, "");
    agreement("textbook (AoS, one pair at a time: end spheres, vertex cylinders, edge-edge, "
              "face crossing)", o->f[0], tt, n);
    free(c);
    free(tri);
    free(tt);
}

#ifdef TOI_BENCH_BULLET
/* Bullet on the in-cache capsule-triangle pairs: ns per pair (best of reps), its misses of
   the contacts toi reports (toi never misses one: the accuracy tests), its extra hits, and the
   largest t difference where both hit. */
static void bullet_peer(const scene *sc, size_t n, outs *o, int reps)
{
    toi_set_backend(TOI_BACKEND_AUTO);
    run(QCT, sc, 0, n, &o->tonly);
    float *tb = bench_falloc(n);
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ns();
        bullet_capsules_triangles(n, &sc->a.c, &sc->t.t, tb);
        double dt = (bench_now_ns() - t0) / (double)n;
        best = dt < best ? dt : best;
    }
    printf("%-16s %-7s %6.2f %5s\n", "capsule-triangle", "bullet", best, "");
    agreement("bullet (btContinuousConvexCollision, btCapsuleShape, btTriangleShape margin 0)",
              o->f[0], tb, n);
    free(tb);
}
#endif

int main(int argc, char **argv)
{
    int quick;
    const char *targets;
    if (bench_options(argc, argv, "toi_bench_capsules", &quick, &targets))
        return 2;
    double cc_avx2 = -1, set_avx2 = -1; /* the targets: avx2, in cache, t only */
    const size_t big = quick ? (1u << 16) : (1u << 21), small = 4096;
    bench_rng r = {0xCAB5};
    scene sc;
    caps_make(&sc.a, big, &r, -2, 2);
    caps_make(&sc.b, big, &r, -2, 2);
    caps_near(&sc.b, &sc.a, big, &r);
    sph_make(&sc.s, big, &r, &sc.a);
    /* capsule a heads for the other body's start, give or take (about half of them hit) */
    for (size_t i = 0; i < big; i++)
        for (int k = 0; k < 3; k++) {
            float d = sc.b.f[k][i] - sc.a.f[k][i];
            sc.s.f[k][i] = sc.b.f[k][i];
            sc.a.f[6 + k][i] = d * rng_range(&r, 0.3f, 1.5f) + rng_range(&r, -0.5f, 0.5f);
        }
    sc.plane = (toi_plane){0, 0, 1, -1.0f};
    tris_make(&sc.t, big, &r, sc.b.f);
    list_make(&sc, big, &r);
    outs ref, got;
    outs_make(&ref, big);
    outs_make(&got, big);
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_AVX512, TOI_BACKEND_NEON};
    printf("toi_bench_capsules: ns per query (best of repetitions), ratio to scalar, hits%s\n",
           quick ? " (quick: small sizes, not performance figures)" : "");
    printf("%-16s %-7s %12s %12s %12s %12s %7s\n", "query", "backend", "cache t", "cache all",
           "DRAM t", "DRAM all", "hits");
    int bad = 0;
    for (int q = 0; q < NQ; q++) {
        toi_set_backend(TOI_BACKEND_SCALAR);
        ptrdiff_t nh = run(q, &sc, 0, small, &ref.all);
        double base[4] = {0, 0, 0, 0};
        for (size_t b = 0; b < sizeof all / sizeof all[0]; b++) {
            if (toi_set_backend(all[b]) != TOI_OK)
                continue;
            ptrdiff_t gh = run(q, &sc, 0, small, &got.all);
            for (int k = 0; k < 8; k++)
                if (memcmp(ref.f[k], got.f[k], small * sizeof(float)) != 0 || gh != nh)
                    bad = 1;
            int reps = quick ? 2 : 15;
            double c_t = time_q(q, &sc, small, small, &got.tonly, reps * 20);
            double c_a = time_q(q, &sc, small, small, &got.all, reps * 20);
            double d_t = time_q(q, &sc, big, big, &got.tonly, quick ? 2 : 5);
            double d_a = time_q(q, &sc, big, big, &got.all, quick ? 2 : 5);
            double v[4] = {c_t, c_a, d_t, d_a};
            if (all[b] == TOI_BACKEND_SCALAR)
                memcpy(base, v, sizeof v);
            if (all[b] == TOI_BACKEND_AVX2 && !strcmp(qname[q], "capsule-capsule"))
                cc_avx2 = c_t;
            printf("%-16s %-7s", qname[q], toi_backend_name(all[b]));
            for (int k = 0; k < 4; k++)
                printf(" %6.2f %4.1fx", v[k], base[k] / v[k]);
            printf(" %6.1f%%\n", 100.0 * (double)nh / (double)small);
        }
    }
    textbook_peer(&sc, small, &ref, quick ? 1 : 15);
#ifdef TOI_BENCH_BULLET
    bullet_peer(&sc, small, &ref, quick ? 1 : 3);
#endif
    bad |= set_bench(quick, &set_avx2);
    FILE *md = bench_targets_open(targets, "Issue-12 targets (capsules; avx2, in cache, t only, "
                                           "best of the repetitions; the 10^6-triangle mesh "
                                           "target is toi_bench_mesh's, below)");
    if (cc_avx2 >= 0)
        bench_target(md, "capsule-capsule, 4,096 pairs", "avx2", "<= 4 ns/pair", cc_avx2, "ns",
                     cc_avx2 <= 4.0);
    if (set_avx2 >= 0)
        bench_target(md, "capsule vs a set of 64 triangles near the path, 1,024 capsules",
                     "avx2", "<= 12 ns/triangle", set_avx2, "ns", set_avx2 <= 12.0);
    if (md && cc_avx2 < 0)
        fprintf(md, "| (avx2 not available here) | | | | |\n");
    if (md)
        fclose(md);
    if (bad)
        printf("MISMATCH: a backend's outputs differ from the scalar reference\n");
    return bad;
}
