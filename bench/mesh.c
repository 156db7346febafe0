/* mesh.c - toi_bench_mesh: the triangle-mesh benchmark (issue 9's figures). Heightfield
   meshes of 10^3 to 10^6 triangles (unit cells, bumps of +-0.75), radius-0.5 spheres swept
   2 units in random directions from random points 0.5 to 3 above the surface, in random
   order; per backend the ns per sphere (t only; all outputs), the hierarchy's work per sphere
   (nv box tests, np triangle tests), the linear set query on the same scene and the speedup
   over it; the build (triangles per second, bytes per triangle) and the refit (triangles per
   second, how much cheaper than a build); the cost model t = nv cv + np cp (+ c0 per sphere)
   fitted by least squares over all scenes, with how well it predicts each; and how the query
   slows down as a refitted mesh deforms away from what it was built for (when to rebuild).
   Timings are the best of several repetitions on a shared machine: compare ratios within
   one run. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scenes ---- */

typedef struct tris {
    size_t n;
    float *f[9];
    toi_triangles t;
} tris;

typedef struct balls {
    size_t n;
    float *f[7];
    toi_spheres s;
} balls;

static float bump(float x, float y, float amp)
{
    return amp * (sinf(x * 0.37f) * cosf(y * 0.23f) + 0.5f * sinf((x + y) * 0.71f));
}

/* A heightfield of about n triangles over G x G unit cells, its triangles in row order. */
static void heightfield(size_t n, tris *T, int *side)
{
    int G = (int)ceil(sqrt((double)n / 2));
    T->n = (size_t)2 * (size_t)G * (size_t)G;
    for (int k = 0; k < 9; k++)
        T->f[k] = bench_falloc(T->n);
    size_t j = 0;
    for (int y = 0; y < G; y++)
        for (int x = 0; x < G; x++) {
            float X = (float)x, Y = (float)y;
            float z00 = bump(X, Y, 0.5f), z10 = bump(X + 1, Y, 0.5f);
            float z01 = bump(X, Y + 1, 0.5f), z11 = bump(X + 1, Y + 1, 0.5f);
            const float a[2][9] = {{X, Y, z00, X + 1, Y, z10, X + 1, Y + 1, z11},
                                   {X, Y, z00, X + 1, Y + 1, z11, X, Y + 1, z01}};
            for (int h = 0; h < 2; h++, j++)
                for (int k = 0; k < 9; k++)
                    T->f[k][j] = a[h][k];
        }
    T->t = (toi_triangles){T->f[0], T->f[1], T->f[2], T->f[3], T->f[4],
                           T->f[5], T->f[6], T->f[7], T->f[8]};
    *side = G;
}

/* n spheres of radius r over a G x G field, 0.5 to 3 above its surface, moving len in a
   random direction (about half of them reach it). */
static void spheres(size_t n, int G, float r, float len, bench_rng *g, balls *B)
{
    B->n = n;
    for (int k = 0; k < 7; k++)
        B->f[k] = bench_falloc(n);
    for (size_t i = 0; i < n; i++) {
        float x = rng_range(g, 0, (float)G), y = rng_range(g, 0, (float)G);
        float d[3], l;
        do {
            for (int k = 0; k < 3; k++)
                d[k] = rng_range(g, -1, 1);
            l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        } while (!(l > 0.1f && l <= 1));
        const float v[7] = {x, y, bump(x, y, 0.5f) + rng_range(g, 0.5f, 3.0f),
                            d[0] / l * len, d[1] / l * len, d[2] / l * len, r};
        for (int k = 0; k < 7; k++)
            B->f[k][i] = v[k];
    }
    B->s = (toi_spheres){B->f[0], B->f[1], B->f[2], B->f[3], B->f[4], B->f[5], B->f[6]};
}

/* n capsules ("characters"): upright segments of height h, radius r, their lower end 0.5 to
   3 above the field, moving len in a random direction (as the spheres). */
typedef struct caps {
    size_t n;
    float *f[10];
    toi_capsules c;
} caps;

static void capsules(size_t n, int G, float r, float h, float len, bench_rng *g, caps *C)
{
    balls B;
    spheres(n, G, r, len, g, &B);
    C->n = n;
    for (int k = 0; k < 10; k++)
        C->f[k] = bench_falloc(n);
    for (size_t i = 0; i < n; i++) {
        const float v[10] = {B.f[0][i], B.f[1][i], B.f[2][i], B.f[0][i], B.f[1][i],
                             B.f[2][i] + h, B.f[3][i], B.f[4][i], B.f[5][i], r};
        for (int k = 0; k < 10; k++)
            C->f[k][i] = v[k];
    }
    for (int k = 0; k < 7; k++)
        free(B.f[k]);
    C->c = (toi_capsules){C->f[0], C->f[1], C->f[2], C->f[3], C->f[4],
                          C->f[5], C->f[6], C->f[7], C->f[8], C->f[9]};
}

static void caps_free(caps *C)
{
    for (int k = 0; k < 10; k++)
        free(C->f[k]);
}

static void tris_free(tris *T)
{
    for (int k = 0; k < 9; k++)
        free(T->f[k]);
}

static void balls_free(balls *B)
{
    for (int k = 0; k < 7; k++)
        free(B->f[k]);
}

/* ---- timing ---- */

typedef struct outs {
    float *f[8];
    uint32_t *index;
    uint8_t *feature;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    for (int k = 0; k < 8; k++)
        o->f[k] = bench_falloc(n);
    o->index = malloc(n * sizeof *o->index);
    o->feature = malloc(n);
}

static void outs_free(outs *o)
{
    for (int k = 0; k < 8; k++)
        free(o->f[k]);
    free(o->index);
    free(o->feature);
}

static toi_hits hits_of(const outs *o, int all)
{
    if (!all)
        return (toi_hits){.t = o->f[0]};
    return (toi_hits){.t = o->f[0], .nx = o->f[1], .ny = o->f[2], .nz = o->f[3],
                      .px = o->f[4], .py = o->f[5], .pz = o->f[6], .depth = o->f[7],
                      .index = o->index, .feature = o->feature};
}

/* Best ns per query of reps runs of the mesh query over the batch (the capsules C when not
   NULL, else the spheres B); *cost: one run's. */
static double time_mesh(const toi_mesh *m, const balls *B, const caps *C, int all, int reps,
                        const outs *o, toi_cost *cost)
{
    toi_hits h = hits_of(o, all);
    double best = INFINITY;
    size_t n = C ? C->n : B->n;
    for (int r = 0; r < reps; r++) {
        toi_cost c = {0, 0, 0};
        double t0 = bench_now_ns();
        if (C)
            toi_sweep_capsules_mesh(n, &C->c, m, 0, &h, &c);
        else
            toi_sweep_spheres_mesh(n, &B->s, m, 0, &h, &c);
        double dt = bench_now_ns() - t0;
        best = dt < best ? dt : best;
        *cost = c;
    }
    return best / (double)n;
}

static double time_set(const tris *T, const balls *B, const caps *C, size_t n, int all,
                       int reps, const outs *o)
{
    toi_hits h = hits_of(o, all);
    double best = INFINITY;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ns();
        if (C)
            toi_sweep_capsules_triangle_set(n, &C->c, T->n, &T->t, 0, &h);
        else
            toi_sweep_spheres_triangle_set(n, &B->s, T->n, &T->t, 0, &h);
        double dt = bench_now_ns() - t0;
        best = dt < best ? dt : best;
    }
    return best / (double)n;
}

/* ---- least squares for the cost model ---- */

/* Solve the normal equations of y ~ X b for k <= 3 unknowns (Gaussian elimination). */
static int lsq(const double *X, const double *y, int rows, int k, double *b)
{
    double A[3][4] = {{0}};
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++)
                A[i][j] += X[r * k + i] * X[r * k + j];
            A[i][k] += X[r * k + i] * y[r];
        }
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(A[r][c]) > fabs(A[p][c]))
                p = r;
        if (fabs(A[p][c]) < 1e-300)
            return 0;
        for (int j = 0; j <= k; j++) {
            double t = A[c][j];
            A[c][j] = A[p][j];
            A[p][j] = t;
        }
        for (int r = 0; r < k; r++)
            if (r != c) {
                double f = A[r][c] / A[c][c];
                for (int j = c; j <= k; j++)
                    A[r][j] -= f * A[c][j];
            }
    }
    for (int i = 0; i < k; i++)
        b[i] = A[i][k] / A[i][i];
    return 1;
}

/* ---- when to rebuild: the query as a refitted mesh deforms ---- */

/* Moves every vertex of the heightfield (G x G cells, triangles as heightfield() lays them
   out) by amp times a smooth flow (a large-scale swirl: neighbours move together, as
   terrain or a draped cloth does) or by amp times independent noise (crumpling). */
static void deform(const tris *base, tris *T, int G, float amp, int noise, bench_rng *g)
{
    for (size_t j = 0; j < base->n; j++)
        for (int v = 0; v < 3; v++) {
            float x = base->f[3 * v][j], y = base->f[3 * v + 1][j], z = base->f[3 * v + 2][j];
            float dx, dy, dz;
            if (noise) {
                dx = rng_range(g, -amp, amp), dy = rng_range(g, -amp, amp);
                dz = rng_range(g, -amp, amp);
            } else {
                float w = 6.2831853f / (float)G;
                dx = amp * sinf(y * w * 2.0f), dy = amp * sinf(x * w * 2.0f);
                dz = 0.25f * amp * sinf((x + y) * w * 3.0f);
            }
            T->f[3 * v][j] = x + dx, T->f[3 * v + 1][j] = y + dy, T->f[3 * v + 2][j] = z + dz;
        }
}

static void rebuild_study(int reps, size_t nsph, bench_rng *g)
{
    tris base, T;
    int G;
    heightfield(100000, &base, &G);
    T.n = base.n;
    for (int k = 0; k < 9; k++)
        T.f[k] = bench_falloc(T.n);
    T.t = (toi_triangles){T.f[0], T.f[1], T.f[2], T.f[3], T.f[4],
                          T.f[5], T.f[6], T.f[7], T.f[8]};
    toi_mesh *m = toi_mesh_build(base.n, &base.t);
    outs o;
    outs_alloc(&o, nsph);
    printf("\nwhen to rebuild: a heightfield of %zu triangles built once, its vertices moved "
           "and the mesh refitted, against a mesh built for the moved vertices (same spheres, "
           "%s backend):\n", base.n, toi_backend_name(toi_get_backend()));
    printf("  %-26s %10s %10s %8s %8s %8s\n", "deformation (cells)", "refit ns", "build ns",
           "ratio", "nv+np r", "nv+np b");
    static const float amps[] = {0.0f, 0.5f, 2.0f, 8.0f, 32.0f};
    for (int noise = 0; noise < 2; noise++)
        for (size_t a = noise ? 1 : 0; a < sizeof amps / sizeof amps[0]; a++) {
            if (noise && amps[a] > 2.0f)
                break;
            bench_rng dg = {0xDEF0 + a};
            deform(&base, &T, G, amps[a], noise, &dg);
            toi_mesh_refit(m, T.n, &T.t, NULL);
            toi_mesh *fresh = toi_mesh_build(T.n, &T.t);
            balls B;
            bench_rng sg = *g;
            spheres(nsph, G, 0.5f, 2.0f, &sg, &B);
            toi_cost cr, cb;
            double tr = time_mesh(m, &B, NULL, 0, reps, &o, &cr);
            double tb = time_mesh(fresh, &B, NULL, 0, reps, &o, &cb);
            char what[64];
            snprintf(what, sizeof what, "%s %g", noise ? "noise +-" : "smooth flow", amps[a]);
            printf("  %-26s %10.1f %10.1f %7.2fx %8.1f %8.1f\n", what, tr, tb, tr / tb,
                   (double)(cr.nv + cr.np) / (double)nsph, (double)(cb.nv + cb.np) / (double)nsph);
            balls_free(&B);
            toi_mesh_free(fresh);
        }
    outs_free(&o);
    toi_mesh_free(m);
    tris_free(&T);
    tris_free(&base);
}

/* ---- main ---- */

#define MAXROWS 64

typedef struct sample {
    double ns, nv, np; /* per sphere */
} sample;

/* Fit t = nv cv + np cp (k = 2) or + c0 (k = 3) to the samples; prints the fit and how well
   it predicts each. */
static void fit(const char *backend, const sample *smp, int n, int k)
{
    double X[MAXROWS * 3], y[MAXROWS], c[3] = {0, 0, 0};
    for (int r = 0; r < n; r++) {
        X[r * k] = smp[r].nv, X[r * k + 1] = smp[r].np;
        if (k == 3)
            X[r * k + 2] = 1.0;
        y[r] = smp[r].ns;
    }
    if (!lsq(X, y, n, k, c))
        return;
    double worst = 0, sum = 0;
    for (int r = 0; r < n; r++) {
        double pred = c[0] * smp[r].nv + c[1] * smp[r].np + (k == 3 ? c[2] : 0);
        double e = fabs(pred - smp[r].ns) / smp[r].ns;
        worst = e > worst ? e : worst;
        sum += e;
    }
    printf("  %-7s cv %6.2f ns, cp %6.2f ns", backend, c[0], c[1]);
    if (k == 3)
        printf(", c0 %6.1f ns", c[2]);
    printf(": within %3.0f %% of every measured time (mean %2.0f %%)\n", worst * 100,
           sum / n * 100);
}

int main(int argc, char **argv)
{
    size_t nsph = 65536;
    int reps = 5, quick = 0;
    const char *targets = NULL;
    double cap_mesh_avx2 = -1; /* issue 12's target: capsules, 10^6 triangles, avx2, t only */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1, reps = 2, nsph = 8192;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--targets") && i + 1 < argc)
            targets = argv[++i];
        else {
            fprintf(stderr, "usage: toi_bench_mesh [--quick] [--reps N] [--targets FILE.md]\n");
            return 2;
        }
    }
    static const toi_backend all_b[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                        TOI_BACKEND_NEON, (toi_backend)5 /* avx512 */};
    toi_backend bk[8];
    int nb = 0;
    for (size_t i = 0; i < sizeof all_b / sizeof all_b[0]; i++)
        if (toi_backend_available(all_b[i]))
            bk[nb++] = all_b[i];
    printf("toi %s mesh benchmark: heightfields of unit cells (bumps +-0.75), spheres of "
           "radius 0.5 swept 2 units in random directions from 0.5 to 3 above the surface, "
           "%zu per batch in random order; ns per sphere, best of %d\n\n",
           toi_version(), nsph, reps);

    static const size_t sizes[] = {1000, 10000, 100000, 1000000};
    size_t nsizes = quick ? 3 : 4;
    sample smp[8][MAXROWS];
    int nsmp = 0;
    double nu_ns[8] = {0}, nu_n = 0;
    bench_rng g = {0x3e54};
    printf("%-20s %-7s %9s %9s %7s %7s %11s %8s\n", "mesh", "backend", "t only", "all",
           "nv", "np", "set t only", "speedup");
    for (size_t z = 0; z < nsizes; z++) {
        tris T;
        int G;
        heightfield(sizes[z], &T, &G);
        double tb = INFINITY, tr = INFINITY;
        toi_mesh *m = NULL;
        toi_cost cr = {0, 0, 0};
        for (int r = 0; r < (T.n >= 1000000 ? 3 : reps); r++) {
            toi_mesh_free(m);
            double t0 = bench_now_ns();
            m = toi_mesh_build(T.n, &T.t);
            double dt = bench_now_ns() - t0;
            tb = dt < tb ? dt : tb;
        }
        if (!m) {
            fprintf(stderr, "toi_bench_mesh: build failed\n");
            return 1;
        }
        for (int r = 0; r < reps; r++) {
            cr = (toi_cost){0, 0, 0};
            double t0 = bench_now_ns();
            toi_mesh_refit(m, T.n, &T.t, &cr);
            double dt = bench_now_ns() - t0;
            tr = dt < tr ? dt : tr;
        }
        nu_ns[0] += tr, nu_n += (double)cr.nu;
        char scene[64];
        snprintf(scene, sizeof scene, "heightfield %zu", T.n);
        balls B;
        spheres(nsph, G, 0.5f, 2.0f, &g, &B);
        outs o;
        outs_alloc(&o, nsph);
        /* the set query on a slice of the batch: it scans every triangle */
        size_t nset = T.n >= 1000000 ? 32 : T.n >= 100000 ? 256 : 2048;
        for (int b = 0; b < nb; b++) {
            toi_set_backend(bk[b]);
            toi_cost c = {0, 0, 0};
            double t1 = time_mesh(m, &B, NULL, 0, reps, &o, &c);
            double ta = time_mesh(m, &B, NULL, 1, reps, &o, &c);
            double ts = time_set(&T, &B, NULL, nset, 0, 1, &o);
            double nv = (double)c.nv / (double)nsph, np = (double)c.np / (double)nsph;
            printf("%-20s %-7s %9.1f %9.1f %7.1f %7.1f %11.1f %7.0fx\n", scene,
                   toi_backend_name(bk[b]), t1, ta, nv, np, ts, ts / t1);
            smp[b][nsmp] = (sample){t1, nv, np};
        }
        nsmp++;
        /* capsule characters on the same mesh: upright, height 1, radius 0.4 */
        caps C;
        size_t ncap = nsph / 4;
        capsules(ncap, G, 0.4f, 1.0f, 2.0f, &g, &C);
        snprintf(scene, sizeof scene, "capsules, %zu", T.n);
        for (int b = 0; b < nb; b++) {
            toi_set_backend(bk[b]);
            toi_cost c = {0, 0, 0};
            double t1 = time_mesh(m, NULL, &C, 0, reps, &o, &c);
            double ta = time_mesh(m, NULL, &C, 1, reps, &o, &c);
            double ts = time_set(&T, NULL, &C, nset / 4 ? nset / 4 : 1, 0, 1, &o);
            if (bk[b] == TOI_BACKEND_AVX2 && sizes[z] == 1000000)
                cap_mesh_avx2 = t1;
            printf("%-20s %-7s %9.1f %9.1f %7.1f %7.1f %11.1f %7.0fx\n", scene,
                   toi_backend_name(bk[b]), t1, ta, (double)c.nv / (double)ncap,
                   (double)c.np / (double)ncap, ts, ts / t1);
        }
        caps_free(&C);
        snprintf(scene, sizeof scene, "heightfield %zu", T.n);
        printf("%-20s build %.1f ms (%.2f M triangles/s), %.1f bytes per triangle; refit %.2f "
               "ms (%.1f M triangles/s, %.1fx cheaper than the build)\n\n", scene, tb * 1e-6,
               (double)T.n / tb * 1e3, (double)toi_mesh_bytes(m) / (double)T.n, tr * 1e-6,
               (double)T.n / tr * 1e3, tb / tr);
        /* other radii and lengths on the same mesh: samples for the cost model */
        static const float rl[3][2] = {{1.5f, 1.0f}, {0.1f, 8.0f}, {0.25f, 0.5f}};
        for (int v = 0; v < 3 && nsmp < MAXROWS; v++) {
            balls B2;
            spheres(nsph / 4, G, rl[v][0], rl[v][1], &g, &B2);
            for (int b = 0; b < nb; b++) {
                toi_set_backend(bk[b]);
                toi_cost c = {0, 0, 0};
                double t1 = time_mesh(m, &B2, NULL, 0, reps, &o, &c);
                smp[b][nsmp] = (sample){t1, (double)c.nv / (double)B2.n,
                                        (double)c.np / (double)B2.n};
            }
            nsmp++;
            balls_free(&B2);
        }
        outs_free(&o);
        balls_free(&B);
        toi_mesh_free(m);
        tris_free(&T);
    }

    printf("cost model, least squares over %d scenes (every mesh above with spheres of radius "
           "0.5, 1.5, 0.1 and 0.25 swept 2, 1, 8 and 0.5 units), t only:\n", nsmp);
    printf(" t = nv cv + np cp (the issue's model):\n");
    for (int b = 0; b < nb; b++)
        fit(toi_backend_name(bk[b]), smp[b], nsmp, 2);
    printf(" t = nv cv + np cp + c0 (a constant per sphere):\n");
    for (int b = 0; b < nb; b++)
        fit(toi_backend_name(bk[b]), smp[b], nsmp, 3);
    printf(" refit: cu = %.2f ns per box updated (the refits above)\n", nu_ns[0] / nu_n);

    toi_set_backend(TOI_BACKEND_AUTO);
    FILE *md = bench_targets_open(targets, "Issue-12 target, the mesh (capsule characters on "
                                           "a heightfield of 10^6 triangles; avx2, t only, "
                                           "best of the repetitions)");
    if (cap_mesh_avx2 >= 0)
        bench_target(md, "capsule vs a 10^6-triangle mesh", "avx2", "<= 600 ns/capsule",
                     cap_mesh_avx2, "ns", cap_mesh_avx2 <= 600.0);
    else if (md)
        fprintf(md, "| (not measured: avx2 not available, or --quick) | | | | |\n");
    if (md)
        fclose(md);
    rebuild_study(reps, quick ? 4096 : 16384, &g);
    return 0;
}
