/* boxes.c - toi_bench_boxes: the oriented-box sweep (linear motion) per backend. Random pairs
   of boxes (centres in [-3, 3]^3, displacements in [-6, 6]^3, half extents 0.1 .. 1, random
   orientations), about 8 % of them hitting, as pairs (toi_sweep_boxes) and as a pair list
   over 4096 bodies (toi_sweep_box_pairs); a batch in cache (4096) and one in DRAM (1 << 20);
   ns per pair with t only and with every output, the best of several repetitions (compare
   ratios within one run: the machine is shared). Angular motion is not in this version.
   Peer (when built with Bullet): btContinuousConvexCollision of two btBoxShapes on the
   in-cache pairs, its time per pair and how often it misses a contact toi reports. */
#define _POSIX_C_SOURCE 200809L
#include "toi.h"
#ifdef TOI_BENCH_BULLET
#include "peers.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

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
    float *f[13];
    toi_boxes b;
} scene;

static void scene_make(scene *s, size_t n)
{
    for (int k = 0; k < 13; k++) {
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
    }
    float *const *f = s->f;
    s->b = (toi_boxes){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11],
                       f[12], NULL, NULL, NULL};
}

static void scene_free(scene *s)
{
    for (int k = 0; k < 13; k++)
        free(s->f[k]);
}

#ifdef TOI_BENCH_BULLET
/* Bullet on the same pairs: ns per pair (best of reps), and its answers against toi's: the
   contacts toi reports that Bullet misses, the hits Bullet reports where toi has none (toi's
   own accuracy is the test suite's: it never misses a contact), and the largest difference
   of t where both hit. */
static void bullet_peer(size_t n, const toi_boxes *a, const toi_boxes *b, int reps)
{
    float *tt = malloc(n * sizeof *tt), *tb = malloc(n * sizeof *tb);
    if (!tt || !tb)
        exit(2);
    toi_hits h = {.t = tt};
    toi_sweep_boxes(n, a, b, 0, &h);
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        bullet_boxes(n, a, b, tb);
        double dt = (now_ns() - t0) / (double)n;
        best = dt < best ? dt : best;
    }
    size_t toi_hits_n = 0, missed = 0, extra = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        int ht = tt[i] <= 1.0f, hb = tb[i] <= 1.0f;
        toi_hits_n += (size_t)ht;
        missed += (size_t)(ht && !hb);
        extra += (size_t)(!ht && hb);
        if (ht && hb && fabs((double)tt[i] - (double)tb[i]) > worst)
            worst = fabs((double)tt[i] - (double)tb[i]);
    }
    printf("%-8s %-6s %9zu %10.2f %10s %10s %10s %6.1f%%\n", "bullet", "linear", n, best, "-",
           "-", "-", 100.0 * (double)(toi_hits_n - missed + extra) / (double)n);
    printf("  bullet (btContinuousConvexCollision, btBoxShape, margin 0): misses %zu of toi's "
           "%zu contacts (%.1f%%; toi: 0 by its tests), %zu hits where toi has none, "
           "largest |t difference| %.2g where both hit\n",
           missed, toi_hits_n, toi_hits_n ? 100.0 * (double)missed / (double)toi_hits_n : 0.0,
           extra, worst);
    free(tt);
    free(tb);
}
#endif

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_AVX512, TOI_BACKEND_NEON};
    const size_t sizes[2] = {4096, quick ? 65536 : (size_t)1 << 20};
    printf("toi_bench_boxes: oriented boxes, linear motion; ns per pair (best of %d)\n",
           quick ? 3 : 7);
    printf("%-8s %-6s %9s %10s %10s %10s %10s %7s\n", "backend", "kind", "pairs", "t only",
           "all", "list t", "list all", "hits");
    for (int si = 0; si < 2; si++) {
        size_t n = sizes[si];
        scene a, b;
        scene_make(&a, n);
        scene_make(&b, n);
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
                    double t0 = now_ns();
                    for (size_t it = 0; it < inner; it++) {
                        ptrdiff_t h = m < 2 ? toi_sweep_boxes(n, &a.b, &b.b, 0, o)
                                            : toi_sweep_box_pairs(n, ia, ib, nb, &a.b, 0, o);
                        if (m == 0)
                            hits = h;
                    }
                    double dt = (now_ns() - t0) / (double)(inner * n);
                    if (dt < best[m])
                        best[m] = dt;
                }
            printf("%-8s %-6s %9zu %10.2f %10.2f %10.2f %10.2f %6.1f%%\n",
                   toi_backend_name(all[bi]), "linear", n, best[0], best[1], best[2], best[3],
                   100.0 * (double)hits / (double)n);
        }
        toi_set_backend(TOI_BACKEND_AUTO);
#ifdef TOI_BENCH_BULLET
        if (si == 0)
            bullet_peer(n, &a.b, &b.b, quick ? 1 : 3);
#endif
        scene_free(&a);
        scene_free(&b);
        free(ia);
        free(ib);
        for (int k = 0; k < 9; k++)
            free(out[k]);
    }
    printf("rotating boxes: not in this version (toi_sweep_boxes returns TOI_ENOTSUP)\n");
    return 0;
}
