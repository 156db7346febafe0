/* boxes.c - toi_bench_boxes: the oriented-box sweep (linear motion) per backend. Random pairs
   of boxes (centres in [-3, 3]^3, displacements in [-6, 6]^3, half extents 0.1 .. 1, random
   orientations), about 8 % of them hitting, as pairs (toi_sweep_boxes) and as a pair list
   over 4096 bodies (toi_sweep_box_pairs); a batch in cache (4096) and one in DRAM (1 << 20);
   ns per pair with t only and with every output, the best of several repetitions (compare
   ratios within one run: the machine is shared). Then the same pairs rotating (angular
   motion): each box turned about a random axis by an angle uniform in [0, pi] over the step,
   with how often the iteration budget ends a query.
   Peers: the plain 15-axis sweep issue 11 names as its baseline (plain_boxes.c,
   auto-vectorised, not robust) on the in-cache linear pairs, its time per pair and its
   agreement with toi; when built with Bullet, btContinuousConvexCollision of two btBoxShapes
   on the in-cache pairs, its time per pair and how often it misses a contact toi reports. */
#define _POSIX_C_SOURCE 200809L
#include "clock.h"
#include "peers.h"
#include "toi.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rs = 0x5eedb0c5ull;
static float unit(void) /* [0, 1) */
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)(z >> 40) * 0x1p-24f;
}
static float range(float lo, float hi) { return lo + (hi - lo) * unit(); }

typedef struct scene {
    float *f[16];
    toi_boxes b;
} scene;

/* spin: the rotation's largest angle (0: linear motion, w arrays NULL) */
static void scene_make(scene *s, size_t n, float spin)
{
    for (int k = 0; k < 16; k++) {
        s->f[k] = malloc(n * sizeof(float));
        if (!s->f[k]) {
            fprintf(stderr, "toi_bench_boxes: out of memory\n");
            exit(2);
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            s->f[k][i] = range(-3, 3);
            s->f[3 + k][i] = range(-6, 6);
            s->f[10 + k][i] = range(0.1f, 1.0f);
        }
        float q[4], l;
        do {
            for (int k = 0; k < 4; k++)
                q[k] = range(-1, 1);
            l = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        } while (!(l > 0.0625f && l <= 1.0f));
        l = sqrtf(l);
        for (int k = 0; k < 4; k++)
            s->f[6 + k][i] = q[k] / l;
        float u[3], a = range(0, spin);
        do {
            for (int k = 0; k < 3; k++)
                u[k] = range(-1, 1);
            l = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        } while (!(l > 0.0625f && l <= 1.0f));
        l = sqrtf(l);
        for (int k = 0; k < 3; k++)
            s->f[13 + k][i] = a * u[k] / l;
    }
    float *const *f = s->f;
    s->b = (toi_boxes){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11],
                       f[12], spin > 0 ? f[13] : NULL, spin > 0 ? f[14] : NULL,
                       spin > 0 ? f[15] : NULL};
}

static void scene_free(scene *s)
{
    for (int k = 0; k < 16; k++)
        free(s->f[k]);
}

/* The largest separation over the 15 axes between box i of a and of b at time t (double,
   libm's sin and cos: an independent check of the kernel, not its method); edge axes of
   parallel edges skipped. */
static void box_at(const toi_boxes *B, size_t i, double t, double c[3], double ax[3][3],
                   double h[3])
{
    double q[4] = {B->qw[i], B->qx[i], B->qy[i], B->qz[i]}, w[3] = {0, 0, 0};
    if (B->wx)
        w[0] = B->wx[i], w[1] = B->wy[i], w[2] = B->wz[i];
    double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (wn > 0) {
        double co = cos(t * wn / 2), sn = sin(t * wn / 2) / wn;
        double r[4] = {co, sn * w[0], sn * w[1], sn * w[2]}, p[4];
        p[0] = r[0] * q[0] - r[1] * q[1] - r[2] * q[2] - r[3] * q[3];
        p[1] = r[0] * q[1] + r[1] * q[0] + r[2] * q[3] - r[3] * q[2];
        p[2] = r[0] * q[2] - r[1] * q[3] + r[2] * q[0] + r[3] * q[1];
        p[3] = r[0] * q[3] + r[1] * q[2] - r[2] * q[1] + r[3] * q[0];
        memcpy(q, p, sizeof q);
    }
    double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], s2 = 2 / n;
    double W = q[0], x = q[1], y = q[2], z = q[3];
    ax[0][0] = 1 - s2 * (y * y + z * z), ax[0][1] = s2 * (x * y + W * z), ax[0][2] = s2 * (x * z - W * y);
    ax[1][0] = s2 * (x * y - W * z), ax[1][1] = 1 - s2 * (x * x + z * z), ax[1][2] = s2 * (y * z + W * x);
    ax[2][0] = s2 * (x * z + W * y), ax[2][1] = s2 * (y * z - W * x), ax[2][2] = 1 - s2 * (x * x + y * y);
    c[0] = B->x[i] + t * B->vx[i], c[1] = B->y[i] + t * B->vy[i], c[2] = B->z[i] + t * B->vz[i];
    h[0] = B->hx[i], h[1] = B->hy[i], h[2] = B->hz[i];
}

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double sat_gap(const toi_boxes *a, const toi_boxes *b, size_t i, double t, double hide)
{
    double ca[3], cb[3], A[3][3], B[3][3], ha[3], hb[3], best = -1e300;
    box_at(a, i, t, ca, A, ha);
    box_at(b, i, t, cb, B, hb);
    double D[3] = {ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]};
    for (int k = 0; k < 15; k++) {
        double L[3], l = 1;
        if (k < 6) {
            memcpy(L, k < 3 ? A[k] : B[k - 3], sizeof L);
        } else {
            const double *x = A[(k - 6) / 3], *y = B[(k - 6) % 3];
            L[0] = x[1] * y[2] - x[2] * y[1], L[1] = x[2] * y[0] - x[0] * y[2],
            L[2] = x[0] * y[1] - x[1] * y[0];
            l = sqrt(dot(L, L));
            if (l < 1e-9)
                continue;
            L[0] /= l, L[1] /= l, L[2] /= l;
        }
        double R = 0;
        for (int m = 0; m < 3; m++)
            R += ha[m] * fabs(dot(A[m], L)) + hb[m] * fabs(dot(B[m], L));
        double g = fabs(dot(D, L)) - R - (k >= 6 ? hide / l : 0);
        best = g > best ? g : best;
    }
    return best;
}

/* Of toi's hits at t > 0 (t: toi's times), those where the budget ended the search: the
   15-axis separation there, each edge axis's less its margin 24 FLT_EPSILON S / sin theta
   (its grown radius hides that much), above the stopping tolerance (2^-10 S,
   docs/boxes.md). */
static size_t budget_hits(size_t n, const toi_boxes *a, const toi_boxes *b, const float *t)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(t[i] > 0.0f && t[i] <= 1.0f))
            continue;
        double S = a->hx[i] + a->hy[i] + a->hz[i] + b->hx[i] + b->hy[i] + b->hz[i];
        S += fabs(a->x[i] - b->x[i]) + fabs(a->y[i] - b->y[i]) + fabs(a->z[i] - b->z[i]);
        S += fabs(a->vx[i] - b->vx[i]) + fabs(a->vy[i] - b->vy[i]) + fabs(a->vz[i] - b->vz[i]);
        k += sat_gap(a, b, i, t[i], 24 * FLT_EPSILON * S) > 0x1p-10 * S * 1.01;
    }
    return k;
}

/* The plain sweep on the same linear pairs: ns per pair (best of reps x inner calls), and
   its answers against toi's with TOI_ALL_OVERLAPS (the plain sweep reports every pair that
   overlaps at t = 0; toi without the flag misses those that separate). The plain sweep is
   the AVX2 baseline: not run where the CPU has no AVX2. */
static void plain_peer(size_t n, const toi_boxes *a, const toi_boxes *b, size_t reps,
                       size_t inner, double toi_avx2)
{
#if defined(__x86_64__)
    if (!toi_backend_available(TOI_BACKEND_AVX2)) {
        printf("  plain: not run (no AVX2 here)\n");
        return;
    }
#endif
    float *tt = malloc(n * sizeof *tt), *tp = malloc(n * sizeof *tp);
    if (!tt || !tp)
        exit(2);
    toi_hits h = {.t = tt};
    toi_sweep_boxes(n, a, b, TOI_ALL_OVERLAPS, &h);
    double best = 1e300;
    size_t hits = 0;
    for (size_t r = 0; r < reps; r++) {
        double t0 = bench_now_ns();
        for (size_t it = 0; it < inner; it++)
            hits = plain_boxes(n, a, b, tp);
        double dt = (bench_now_ns() - t0) / (double)(inner * n);
        best = dt < best ? dt : best;
    }
    size_t agree = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        int ht = tt[i] <= 1.0f, hp = tp[i] <= 1.0f;
        agree += (size_t)(ht == hp);
        if (ht && hp && fabs((double)tt[i] - (double)tp[i]) > worst)
            worst = fabs((double)tt[i] - (double)tp[i]);
    }
    printf("%-8s %-6s %9zu %10.2f %10s %10s %10s %6.1f%%\n", "plain", "linear", n, best, "-",
           "-", "-", 100.0 * (double)hits / (double)n);
    printf("  plain (the issue's baseline: a 15-axis SoA loop auto-vectorised, for AVX2 on "
           "x86-64, not robust: bench/plain_boxes.c): hit or miss as toi's with "
           "TOI_ALL_OVERLAPS on %zu of %zu pairs, largest |t difference| %.2g where both hit",
           agree, n, worst);
    if (toi_avx2 >= 0)
        printf("; toi's avx2 time (t only) over the plain loop's: %.2fx", toi_avx2 / best);
    printf("\n");
    free(tt);
    free(tp);
}

#ifdef TOI_BENCH_BULLET
/* Whether the boxes of pair i overlap at one of 2048 times of the step (a real contact). */
static int touches(const toi_boxes *a, const toi_boxes *b, size_t i)
{
    for (int k = 0; k <= 2048; k++)
        if (sat_gap(a, b, i, k / 2048.0, 0) <= 0)
            return 1;
    return 0;
}

/* Bullet on the same pairs: ns per pair (best of reps), and its answers against toi's: the
   contacts toi reports that Bullet misses, the hits Bullet reports where toi has none (toi's
   own accuracy is the test suite's: it never misses a contact), and the largest difference
   of t where both hit. */
static double bullet_peer(size_t n, const toi_boxes *a, const toi_boxes *b, int reps,
                          const char *kind)
{
    float *tt = malloc(n * sizeof *tt), *tb = malloc(n * sizeof *tb);
    if (!tt || !tb)
        exit(2);
    toi_hits h = {.t = tt};
    toi_sweep_boxes(n, a, b, 0, &h);
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ns();
        bullet_boxes(n, a, b, tb);
        double dt = (bench_now_ns() - t0) / (double)n;
        best = dt < best ? dt : best;
    }
    size_t toi_hits_n = 0, missed = 0, extra = 0, real = 0, xreal = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        int ht = tt[i] <= 1.0f, hb = tb[i] <= 1.0f;
        toi_hits_n += (size_t)ht;
        missed += (size_t)(ht && !hb);
        if (ht && !hb && a->wx)
            real += (size_t)touches(a, b, i);
        if (!ht && hb && a->wx && sat_gap(a, b, i, 0, 0) > 0)
            xreal += (size_t)touches(a, b, i);
        extra += (size_t)(!ht && hb);
        if (ht && hb && fabs((double)tt[i] - (double)tb[i]) > worst)
            worst = fabs((double)tt[i] - (double)tb[i]);
    }
    printf("%-8s %-6s %9zu %10.2f %10s %10s %10s %6.1f%%\n", "bullet", kind, n, best, "-",
           "-", "-", 100.0 * (double)(toi_hits_n - missed + extra) / (double)n);
    printf("  bullet (btContinuousConvexCollision, btBoxShape, margin 0): misses %zu of toi's "
           "%zu contacts (%.1f%%; toi: 0 by its tests), %zu hits where toi has none, "
           "largest |t difference| %.2g where both hit\n",
           missed, toi_hits_n, toi_hits_n ? 100.0 * (double)missed / (double)toi_hits_n : 0.0,
           extra, worst);
    if (a->wx)
        printf("  of those Bullet misses, %zu overlap at one of 2049 sampled times (real "
               "contacts it tunnels through; the rest come within toi's tolerance, or toi's "
               "budget ended early); of its hits where toi has none, %zu apart at t = 0 overlap at a sampled time\n",
               real, xreal);
    free(tt);
    free(tb);
    return best;
}
#endif

int main(int argc, char **argv)
{
    int quick;
    const char *targets;
    if (bench_options(argc, argv, "toi_bench_boxes", &quick, &targets))
        return 2;
    /* the targets: avx2, in cache (4,096 pairs), t only; Bullet on the rotating pairs */
    double lin_avx2 = -1, rot_avx2 = -1, rot_bullet = -1;
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_AVX512, TOI_BACKEND_NEON};
    const size_t sizes[2] = {4096, quick ? 65536 : (size_t)1 << 20};
    printf("toi_bench_boxes: oriented boxes, linear motion and rotating (each box turned by up "
           "to pi over the step); ns per pair (best of %d)\n", quick ? 3 : 7);
    printf("%-8s %-6s %9s %10s %10s %10s %10s %7s\n", "backend", "kind", "pairs", "t only",
           "all", "list t", "list all", "hits");
    for (int si = 0; si < 4; si++) {
        size_t n = sizes[si % 2];
        const float spin = si < 2 ? 0.0f : 3.14159265f;
        const char *kind = si < 2 ? "linear" : "rotate";
        scene a, b;
        scene_make(&a, n, spin);
        scene_make(&b, n, spin);
        uint32_t *ia = malloc(n * sizeof *ia), *ib = malloc(n * sizeof *ib);
        float *out[9];
        for (int k = 0; k < 9; k++)
            out[k] = malloc(n * sizeof(float));
        if (!ia || !ib)
            return 2;
        size_t nb = n < 4096 ? n : 4096;
        for (size_t i = 0; i < n; i++)
            ia[i] = (uint32_t)(unit() * (float)nb), ib[i] = (uint32_t)(unit() * (float)nb);
        toi_hits t_only = {out[0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        toi_hits every = {out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], 0, 0,
                          out[8]};
        for (size_t bi = 0; bi < sizeof all / sizeof all[0]; bi++) {
            if (!toi_backend_available(all[bi]))
                continue;
            toi_set_backend(all[bi]);
            double best[4] = {1e300, 1e300, 1e300, 1e300};
            ptrdiff_t hits = 0;
            size_t reps = quick ? 3 : 7, inner = n >= 65536 ? 1 : 16;
            for (size_t r = 0; r < reps; r++)
                for (int m = 0; m < 4; m++) {
                    const toi_hits *o = m % 2 ? &every : &t_only;
                    double t0 = bench_now_ns();
                    for (size_t it = 0; it < inner; it++) {
                        ptrdiff_t h = m < 2 ? toi_sweep_boxes(n, &a.b, &b.b, 0, o)
                                            : toi_sweep_box_pairs(n, ia, ib, nb, &a.b, 0, o);
                        if (m == 0)
                            hits = h;
                    }
                    double dt = (bench_now_ns() - t0) / (double)(inner * n);
                    if (dt < best[m])
                        best[m] = dt;
                }
            if (all[bi] == TOI_BACKEND_AVX2 && si == 0)
                lin_avx2 = best[0];
            if (all[bi] == TOI_BACKEND_AVX2 && si == 2)
                rot_avx2 = best[0];
            printf("%-8s %-6s %9zu %10.2f %10.2f %10.2f %10.2f %6.1f%%\n",
                   toi_backend_name(all[bi]), kind, n, best[0], best[1], best[2], best[3],
                   100.0 * (double)hits / (double)n);
        }
        toi_set_backend(TOI_BACKEND_AUTO);
        if (si == 0)
            plain_peer(n, &a.b, &b.b, quick ? 3 : 7, 16, lin_avx2);
        if (spin > 0 && si == 2) {
            toi_sweep_boxes(n, &a.b, &b.b, 0, &t_only);
            size_t h = 0;
            for (size_t i = 0; i < n; i++)
                h += out[0][i] <= 1.0f;
            printf("  rotating, %zu pairs: %zu hits, the iteration budget ended %zu of them "
                   "(15-axis separation, less the edge axes' margins, above the tolerance at t)\n", n, h,
                   budget_hits(n, &a.b, &b.b, out[0]));
        }
#ifdef TOI_BENCH_BULLET
        if (si % 2 == 0) {
            double tb = bullet_peer(n, &a.b, &b.b, quick ? 1 : 3, kind);
            if (si == 2)
                rot_bullet = tb;
        }
#endif
        scene_free(&a);
        scene_free(&b);
        free(ia);
        free(ib);
        for (int k = 0; k < 9; k++)
            free(out[k]);
    }
    FILE *md = bench_targets_open(targets, "Issue-11 targets (oriented boxes; avx2, 4,096 pairs "
                                           "in cache, t only, best of the repetitions)");
    if (lin_avx2 >= 0) {
        bench_target(md, "linear motion", "avx2", "<= 5 ns/pair", lin_avx2, "ns",
                     lin_avx2 <= 5.0);
        bench_target(md, "rotating (each box turned up to pi)", "avx2", "<= 60 ns/pair",
                     rot_avx2, "ns", rot_avx2 <= 60.0);
        if (rot_bullet >= 0)
            bench_target(md, "rotating: Bullet's time over toi's", "avx2", ">= 20x",
                         rot_bullet / rot_avx2, "x", rot_bullet >= 20.0 * rot_avx2);
        else if (md)
            fprintf(md, "| rotating: Bullet's time over toi's | avx2 | >= 20x | (built without "
                        "Bullet) | |\n");
    } else if (md) {
        fprintf(md, "| (avx2 not available here) | | | | |\n");
    }
    if (md)
        fclose(md);
    return 0;
}
