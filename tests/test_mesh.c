/* test_mesh.c - the triangle mesh (toi_mesh_*, toi_sweep_spheres_mesh) in every group:
   contract cases and bad calls, allocation failure and memory; differential (every
   backend's mesh query bit for bit the set query's on the same triangles, before and after
   refits, with the cost counters equal on every backend); accuracy (the mesh's answer
   against the long-double oracle over all its triangles); many threads querying one mesh;
   and a golden hash of results and counters, the same on every architecture. */
#include "mesh.h"
#include "mesh_gen.h"
#include "tri_judge.h"
#if defined(TOI_TEST_PARTICLES)
#include "meshload.h"
#endif

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

/* The outputs a call asks for: 0 all, 1 t alone, 2 t and feature, 3 t, index and normal. */
static toi_hits select_outputs(const t_hits *h, int sel)
{
    toi_hits o = h->h;
    if (sel == 0)
        return o;
    toi_hits r = {.t = o.t};
    if (sel == 2)
        r.feature = o.feature;
    if (sel == 3)
        r.index = o.index, r.nx = o.nx, r.ny = o.ny, r.nz = o.nz;
    return r;
}

static void report_diff(const char *what, const t_scene *sc, const t_hits *a, const t_hits *b,
                        int k, size_t i)
{
    const char *name = k < T_NOUT ? t_out_names[k] : k == T_NOUT ? "index" : "feature";
    CHECK(0, "%s: sphere %zu: %s differs (set t %.9g index %u feature %u; mesh t %.9g index "
             "%u feature %u)", what, i, name, a->f[0][i], a->index[i], a->feature[i],
          b->f[0][i], b->index[i], b->feature[i]);
    printf("    sphere:");
    for (int j = 0; j < 7; j++)
        printf(" %a", sc->sph.f[j][i]);
    printf("\n");
}

/* ---- contract ---- */

#define TRI1(ax, ay, az, bx, by, bz, cx, cy, cz) {ax, ay, az, bx, by, bz, cx, cy, cz}

/* A mesh of the n triangles T, copied into *t; a failed build fails the check and frees *t
   (NULL). */
static toi_mesh *build_from(t_tri *t, size_t n, const float (*T)[9])
{
    t_tri_alloc(t, n);
    for (size_t j = 0; j < n; j++)
        for (int k = 0; k < 9; k++)
            t->f[k][j] = T[j][k];
    toi_mesh *m = toi_mesh_build(n, &t->t);
    CHECK(m != NULL, "build failed");
    if (!m)
        t_tri_free(t);
    return m;
}

/* Hand cases with known answers on every backend. */
static void case_mesh_cases(const void *ctx)
{
    const t_impl *im = ctx;
    const float N = __builtin_nanf("");
    /* a unit quad at z = 0 split along its diagonal, a copy of triangle 0 at index 3 with
       the other winding, a NaN triangle at index 2, a triangle far away */
    static float T[5][9];
    const float T0[5][9] = {
        TRI1(0, 0, 0, 1, 0, 0, 1, 1, 0), TRI1(0, 0, 0, 1, 1, 0, 0, 1, 0),
        TRI1(0, 0, 0.5f, 1, 0, 0.5f, 1, 1, 0.5f), TRI1(0, 0, 0, 1, 1, 0, 1, 0, 0),
        TRI1(50, 50, 0, 51, 50, 0, 50, 51, 0)};
    for (int j = 0; j < 5; j++)
        for (int k = 0; k < 9; k++)
            T[j][k] = T0[j][k];
    T[2][4] = N; /* would be hit first, at z = 0.5 */
    t_tri tr;
    toi_mesh *m = build_from(&tr, 5, (const float (*)[9])T);
    if (!m)
        return;
    t_sph s;
    t_hits h;
    t_spheres_alloc(&s, 4);
    t_hits_alloc(&h, 4);
    /* 0: onto the diagonal (both halves and the copy at t = 0.4: index 0, its edge CA);
       1: onto the second half only (index 1, face); 2: beside everything (miss);
       3: NaN centre (miss) */
    const float S[4][7] = {{0.5f, 0.5f, 5, 0, 0, -10, 1},
                           {0.25f, 0.75f, 3, 0, 0, -10, 1},
                           {5, 5, 5, 0, 0, -10, 1},
                           {N, 0.5f, 5, 0, 0, -10, 1}};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 7; k++)
            s.f[k][i] = S[i][k];
    toi_cost c = {0, 0, 0};
    ptrdiff_t r = t_mesh(im, 4, &s.s, m, 0, &h.h, &c);
    CHECK(r == 2, "returned %td, want 2", r);
    CHECK(h.f[0][0] == 0.4f && h.index[0] == 0 && h.feature[0] == TOI_FEATURE_EDGE_CA,
          "diagonal: t %g index %u feature %u", h.f[0][0], h.index[0], h.feature[0]);
    CHECK(h.f[3][0] == 1.0f && h.f[4][0] == 0.5f && h.f[5][0] == 0.5f && h.f[6][0] == 0.0f,
          "diagonal: normal z %g point %g %g %g", h.f[3][0], h.f[4][0], h.f[5][0], h.f[6][0]);
    CHECK(h.f[0][1] == 0.2f && h.index[1] == 1 && h.feature[1] == TOI_FEATURE_FACE,
          "second half: t %g index %u feature %u", h.f[0][1], h.index[1], h.feature[1]);
    for (int i = 2; i < 4; i++)
        CHECK(h.f[0][i] == TOI_NO_HIT && h.index[i] == UINT32_MAX &&
                  h.feature[i] == TOI_FEATURE_NONE && h.f[1][i] == 0.0f,
              "sphere %d: a miss wanted (t %g index %u)", i, h.f[0][i], h.index[i]);
    CHECK(c.nv > 0 && c.np > 0 && c.nu == 0, "cost %llu %llu %llu", (unsigned long long)c.nv,
          (unsigned long long)c.np, (unsigned long long)c.nu);
    /* refit: the NaN triangle comes back (first hit, at z = 0.5), the quad drops to z = -1 */
    tr.f[4][2] = 0;
    for (int j = 0; j < 2; j++)
        for (int v = 0; v < 3; v++)
            tr.f[3 * v + 2][j] = -1;
    toi_cost cr = {0, 0, 0};
    CHECK(toi_mesh_refit(m, 5, &tr.t, &cr) == TOI_OK && cr.nu > 0, "refit failed");
    r = t_mesh(im, 2, &s.s, m, 0, &h.h, NULL);
    /* sphere 1 passes beside triangle 2 (y <= x), 0.125^(1/2) from its edge CA, the
       diagonal: it touches when 1 = h^2 + 0.125 above z = 0.5 */
    double t1 = (3 - 0.5 - sqrt(1 - 0.125)) / 10;
    CHECK(r == 2 && h.f[0][0] == 0.35f && h.index[0] == 2 && fabs(h.f[0][1] - t1) < 1e-6 &&
              h.index[1] == 2 && h.feature[1] == TOI_FEATURE_EDGE_CA,
          "after refit: %td, t %g %g index %u %u feature %u", r, h.f[0][0], h.f[0][1],
          h.index[0], h.index[1], h.feature[1]);
    /* every triangle non-finite: every sphere misses */
    for (int j = 0; j < 5; j++)
        tr.f[0][j] = N;
    CHECK(toi_mesh_refit(m, 5, &tr.t, NULL) == TOI_OK, "refit failed");
    r = t_mesh(im, 4, &s.s, m, TOI_ALL_OVERLAPS, &h.h, NULL);
    CHECK(r == 0 && h.f[0][0] == TOI_NO_HIT && h.index[0] == UINT32_MAX, "all NaN: %td", r);
    toi_mesh_free(m);
    t_tri_free(&tr);
    t_spheres_free(&s);
    t_hits_free(&h);
}

/* Capsules with known answers on every backend, over triangle 0 = (0,0,0) (1,0,0) (0,1,0)
   at z = 0 and one far away: a long horizontal capsule whose start point passes nowhere near
   the triangle but whose other end falls onto it (only the stretched boxes find it), one
   standing on each end, one beside everything, and bad capsules (non-finite p1, negative
   r): misses. */
static void case_capsule_mesh_cases(const void *ctx)
{
    const t_impl *im = ctx;
    const float N = __builtin_nanf("");
    const float T0[2][9] = {TRI1(0, 0, 0, 1, 0, 0, 0, 1, 0),
                            TRI1(50, 50, 0, 51, 50, 0, 50, 51, 0)};
    t_tri tr;
    toi_mesh *m = build_from(&tr, 2, T0);
    if (!m)
        return;
    enum { NC = 7 };
    /* x0 y0 z0 x1 y1 z1 vx vy vz r */
    const float C[NC][10] = {
        {-20, 0.25f, 1, 0.25f, 0.25f, 1, 0, 0, -1, 0.5f},   /* lying, end over the face */
        {0.25f, 0.25f, 1, -20, 0.25f, 1, 0, 0, -1, 0.5f},   /* the same, ends swapped */
        {0.25f, 0.25f, 2, 0.25f, 0.25f, 3, 0, 0, -2, 0.25f}, /* standing on p0 */
        {0.25f, 0.25f, 3, 0.25f, 0.25f, 2, 0, 0, -2, 0.25f}, /* standing on p1 */
        {5, 5, 1, 6, 5, 1, 0, 0, -2, 0.25f},                 /* beside everything */
        {-20, 0.25f, 1, N, 0.25f, 1, 0, 0, -1, 0.5f},       /* non-finite p1 */
        {-20, 0.25f, 1, 0.25f, 0.25f, 1, 0, 0, -1, -0.5f},  /* negative radius */
    };
    float *f[10];
    for (int k = 0; k < 10; k++) {
        f[k] = malloc(NC * sizeof(float));
        for (int i = 0; i < NC; i++)
            f[k][i] = C[i][k];
    }
    const toi_capsules c = {f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]};
    t_hits h;
    t_hits_alloc(&h, NC);
    toi_cost cost = {0, 0, 0};
    ptrdiff_t r = t_capsules_mesh(im, NC, &c, m, 0, &h.h, &cost);
    CHECK(r == 4, "returned %td, want 4", r);
    const float want_t[4] = {0.5f, 0.5f, 0.875f, 0.875f};
    for (int i = 0; i < 4; i++)
        CHECK(fabsf(h.f[0][i] - want_t[i]) <= 1e-6f && h.index[i] == 0 &&
                  h.feature[i] == TOI_FEATURE_FACE && h.f[3][i] == 1.0f && h.f[6][i] == 0.0f,
              "capsule %d: t %.9g (want %g) index %u feature %u normal z %g point z %g", i,
              h.f[0][i], want_t[i], h.index[i], h.feature[i], h.f[3][i], h.f[6][i]);
    for (int i = 2; i < 4; i++)
        CHECK(h.f[4][i] == 0.25f && h.f[5][i] == 0.25f, "capsule %d: point %g %g", i,
              h.f[4][i], h.f[5][i]);
    for (int i = 4; i < NC; i++)
        CHECK(h.f[0][i] == TOI_NO_HIT && h.index[i] == UINT32_MAX &&
                  h.feature[i] == TOI_FEATURE_NONE,
              "capsule %d: a miss wanted (t %g index %u)", i, h.f[0][i], h.index[i]);
    CHECK(cost.nv > 0 && cost.np > 0, "cost %llu %llu", (unsigned long long)cost.nv,
          (unsigned long long)cost.np);
    /* bad calls: nothing written */
    t_hits_fill(&h, 0xA5);
    toi_capsules nor = c;
    nor.r = NULL;
    CHECK(toi_sweep_capsules_mesh(NC, &c, NULL, 0, &h.h, NULL) == TOI_EINVAL &&
              toi_sweep_capsules_mesh(NC, NULL, m, 0, &h.h, NULL) == TOI_EINVAL &&
              toi_sweep_capsules_mesh(NC, &nor, m, 0, &h.h, NULL) == TOI_EINVAL &&
              toi_sweep_capsules_mesh(NC, &c, m, 4, &h.h, NULL) == TOI_EINVAL &&
              toi_sweep_capsules_mesh(NC, &c, m, 0, NULL, NULL) == TOI_EINVAL &&
              toi_sweep_capsules_mesh(0, NULL, NULL, 0, NULL, NULL) == 0,
          "capsule mesh bad calls");
    CHECK(float_bits(h.f[0][0]) == 0xA5A5A5A5u, "a bad call wrote t");
    for (int k = 0; k < 10; k++)
        free(f[k]);
    t_hits_free(&h);
    toi_mesh_free(m);
    t_tri_free(&tr);
}

/* Bad calls: NULL and out-of-range arguments -> NULL / TOI_EINVAL, nothing written and the
   mesh unchanged. */
static void case_mesh_bad(const void *ctx)
{
    (void)ctx;
    rng r = t_rng(0xBAD3);
    t_scene sc;
    mesh_scene(&r, MESH_HEIGHTFIELD, 40, 16, &sc);
    CHECK(toi_mesh_build(0, &sc.tri.t) == NULL, "ntris = 0 built");
    CHECK(toi_mesh_build(40, NULL) == NULL, "NULL triangles built");
    CHECK(toi_mesh_build((size_t)UINT32_MAX, &sc.tri.t) == NULL, "UINT32_MAX built");
    CHECK(toi_mesh_build((size_t)UINT32_MAX + 7, &sc.tri.t) == NULL, "> UINT32_MAX built");
    for (int k = 0; k < 9; k++) {
        toi_triangles t = sc.tri.t;
        ((const float **)&t)[k] = NULL;
        CHECK(toi_mesh_build(40, &t) == NULL, "array %d NULL built", k);
    }
    toi_mesh *m = toi_mesh_build(40, &sc.tri.t);
    CHECK(m != NULL && toi_mesh_bytes(m) > 0, "build failed");
    CHECK(toi_mesh_bytes(NULL) == 0, "bytes of NULL");
    toi_mesh_free(NULL);
    t_hits h, g;
    t_hits_alloc(&h, 16);
    t_hits_alloc(&g, 16);
    toi_cost c0 = {0, 0, 0}, c = c0;
    ptrdiff_t want = toi_sweep_spheres_mesh(16, &sc.sph.s, m, 0, &g.h, &c0);
    toi_mesh_test_fail_alloc(-1);
    /* refit: NULL mesh, another count, NULL arrays */
    toi_cost cr = {0, 0, 0};
    CHECK(toi_mesh_refit(NULL, 40, &sc.tri.t, &cr) == TOI_EINVAL, "NULL mesh refit");
    CHECK(toi_mesh_refit(m, 39, &sc.tri.t, &cr) == TOI_EINVAL, "count 39 refit");
    CHECK(toi_mesh_refit(m, 41, &sc.tri.t, &cr) == TOI_EINVAL, "count 41 refit");
    CHECK(toi_mesh_refit(m, 40, NULL, &cr) == TOI_EINVAL, "NULL triangles refit");
    toi_triangles zz = sc.tri.t;
    zz.cz = NULL;
    CHECK(toi_mesh_refit(m, 40, &zz, &cr) == TOI_EINVAL, "NULL cz refit");
    CHECK(cr.nu == 0, "a refused refit counted %llu updates", (unsigned long long)cr.nu);
    /* queries: NULL mesh, spheres, outputs; undefined flags; n = 0 */
    const toi_hits none = {0};
    toi_hits no_t = h.h;
    no_t.t = NULL;
    struct {
        const char *what;
        ptrdiff_t r;
    } bad[] = {
        {"NULL mesh", toi_sweep_spheres_mesh(16, &sc.sph.s, NULL, 0, &h.h, &c)},
        {"NULL spheres", toi_sweep_spheres_mesh(16, NULL, m, 0, &h.h, &c)},
        {"NULL out", toi_sweep_spheres_mesh(16, &sc.sph.s, m, 0, NULL, &c)},
        {"NULL out->t", toi_sweep_spheres_mesh(16, &sc.sph.s, m, 0, &no_t, &c)},
        {"no outputs", toi_sweep_spheres_mesh(16, &sc.sph.s, m, 0, &none, &c)},
        {"flag 4", toi_sweep_spheres_mesh(16, &sc.sph.s, m, 4, &h.h, &c)},
        {"flag 1 << 31", toi_sweep_spheres_mesh(16, &sc.sph.s, m, 1u << 31, &h.h, &c)},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(bad[i].r == TOI_EINVAL, "%s: returned %td", bad[i].what, bad[i].r);
    toi_spheres nosph = sc.sph.s;
    nosph.vz = NULL;
    CHECK(toi_sweep_spheres_mesh(16, &nosph, m, 0, &h.h, &c) == TOI_EINVAL, "NULL vz");
    CHECK(toi_sweep_spheres_mesh(0, &sc.sph.s, NULL, 0, NULL, &c) == 0, "n = 0");
    for (int k = 0; k < T_NOUT; k++)
        for (size_t i = 0; i <= 16; i++)
            CHECK(float_bits(h.f[k][i]) == 0xA5A5A5A5u, "bad call wrote %s[%zu]",
                  t_out_names[k], i);
    CHECK(c.nv == 0 && c.np == 0 && c.nu == 0, "bad calls counted work");
    /* the mesh still answers as before */
    CHECK(toi_sweep_spheres_mesh(16, &sc.sph.s, m, 0, &h.h, &c) == want, "count changed");
    size_t at = 0;
    int k = t_hits_diff(&g, &h, 16, &at);
    CHECK(k < 0, "results changed after refused calls (output %d, sphere %zu)", k, at);
    CHECK(c.nv == c0.nv && c.np == c0.np, "counts changed after refused calls");
    toi_mesh_free(m);
    t_hits_free(&h);
    t_hits_free(&g);
    mesh_scene_free(&sc);
}

/* Every allocation of a build failing in turn: NULL, nothing leaked (the sanitizer and
   valgrind runs check), and a build that then succeeds answers as one never interrupted. */
static void case_mesh_alloc(const void *ctx)
{
    (void)ctx;
    rng r = t_rng(0xA110C);
    t_scene sc;
    mesh_scene(&r, MESH_NONFINITE, 3000, 64, &sc);
    toi_mesh *ref = toi_mesh_build(sc.ntris, &sc.tri.t);
    t_hits a, b;
    t_hits_alloc(&a, 64);
    t_hits_alloc(&b, 64);
    toi_sweep_spheres_mesh(64, &sc.sph.s, ref, 0, &a.h, NULL);
    long k = 0;
    toi_mesh *m = NULL;
    for (; k < 64 && !m; k++) {
        toi_mesh_test_fail_alloc(k);
        m = toi_mesh_build(sc.ntris, &sc.tri.t);
        toi_mesh_test_fail_alloc(-1);
    }
    CHECK(m != NULL, "no build succeeded with up to 63 allocations allowed");
    CHECK(k >= 4, "only %ld allocations: the failure paths were hardly tested", k);
    if (m) {
        toi_sweep_spheres_mesh(64, &sc.sph.s, m, 0, &b.h, NULL);
        size_t at = 0;
        int d = t_hits_diff(&a, &b, 64, &at);
        CHECK(d < 0, "results differ after failed builds (output %d, sphere %zu)", d, at);
        CHECK(toi_mesh_bytes(m) == toi_mesh_bytes(ref), "bytes differ");
    }
    printf("    each of the build's %ld allocations failed in turn: NULL, nothing leaked\n",
           k - 1);
    toi_mesh_free(m);
    toi_mesh_free(ref);
    t_hits_free(&a);
    t_hits_free(&b);
    mesh_scene_free(&sc);
}

/* The memory a heightfield mesh holds: at most 48 bytes per triangle, everything included
   (the budget); and the build's layout (every triangle in exactly one leaf). The
   largest size's triangle array (5.2 MB) takes the huge-page path of the build's allocation
   (src/mesh.c, TOI_MESH_HUGE): aligned to 2 MiB on Linux. */
static void case_mesh_memory(const void *ctx)
{
    (void)ctx;
    rng r = t_rng(0x3E3);
    static const size_t sizes[] = {1, 8, 9, 100, 10000, 100000, 131072};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        size_t n = sizes[z];
        t_scene sc;
        mesh_scene(&r, MESH_HEIGHTFIELD, n, 1, &sc);
        toi_mesh *m = toi_mesh_build(n, &sc.tri.t);
        CHECK(m != NULL, "build of %zu failed", n);
        if (!m) {
            mesh_scene_free(&sc);
            continue;
        }
        double per = (double)toi_mesh_bytes(m) / (double)n;
#if defined(__linux__)
        if (n == 131072)
            CHECK((uintptr_t)m->tri % ((uintptr_t)2 << 20) == 0,
                  "%zu triangles: the triangle array is not 2 MiB aligned", n);
#endif
        if (n >= 10000)
            CHECK(per <= 48.0, "%zu triangles: %.2f bytes per triangle (budget 48)", n, per);
        /* every index once, in leaves of 1..8 */
        unsigned char *seen = calloc(n, 1);
        size_t leaves = 0, in_leaves = 0;
        for (size_t i = 0; i < m->nnodes; i++)
            for (int c = 0; c < m->nodes[i].nchild; c++) {
                unsigned cnt = m->nodes[i].count[c];
                if (cnt == TOI_MESH_INNER) {
                    CHECK(m->nodes[i].ref[c] > i && m->nodes[i].ref[c] < m->nnodes,
                          "node %zu child %d: node %u", i, c, m->nodes[i].ref[c]);
                    continue;
                }
                CHECK(cnt >= 1 && cnt <= TOI_MESH_W, "leaf of %u", cnt);
                leaves++;
                for (unsigned j = 0; j < cnt; j++) {
                    uint32_t idx = toi_mesh_index(m, m->nodes[i].ref[c], cnt, j);
                    CHECK(idx < n && !seen[idx], "index %u twice or out of range", idx);
                    if (idx < n)
                        seen[idx] = 1;
                    in_leaves++;
                }
            }
        CHECK(in_leaves == n, "%zu of %zu triangles in leaves", in_leaves, n);
        if (n >= 10000)
            printf("    %zu triangles: %zu nodes, %zu leaves (%.2f triangles each), %.2f bytes "
                   "per triangle\n", n, m->nnodes, leaves, (double)n / (double)leaves, per);
        free(seen);
        toi_mesh_free(m);
        mesh_scene_free(&sc);
    }
}

/* A split along an axis whose centroids spread by a denormal amount: the bin scale along it,
   nb / extent, overflows to +inf, and the partition must put each triangle on the side its
   bin is on (the binning clamps +inf to the last bin). Eight small triangles with their
   centroid at the origin and eight tall ones (y from -10 to 10) with theirs at x = 2^-140;
   a sphere crossing the tall ones at y = 5 hits them at t = 0.45, testing their leaf alone.
   (The partition once converted +inf to int, undefined behaviour, found by the capsule mesh
   fuzzer under UBSan: on x86 it gave INT_MIN, every triangle went left, and the builder
   recursed into a chain of nodes with empty children: 5,992 bytes instead of 1,000, and this
   query tested 315 node children and 16 triangles instead of 3 and 8, with the same answer.) */
static void case_mesh_denormal_spread(const void *ctx)
{
    const t_impl *im = ctx;
    const float a = 0x1p-140f;
    float T[16][9];
    for (int j = 0; j < 8; j++) {
        const float d = 1e-3f * (float)(j + 1);
        const float small[9] = TRI1(0, -d, -d, 0, d, -d, 0, 0, d);
        const float tall[9] = TRI1(a, -10, -1, a, 10, -1, a, 0, 1);
        for (int k = 0; k < 9; k++)
            T[2 * j][k] = small[k], T[2 * j + 1][k] = tall[k];
    }
    t_tri tr;
    toi_mesh *m = build_from(&tr, 16, (const float (*)[9])T);
    if (!m)
        return;
    t_sph s;
    t_hits h, hs;
    t_spheres_alloc(&s, 1);
    t_hits_alloc(&h, 1);
    t_hits_alloc(&hs, 1);
    const float S[7] = {-1, 5, 0, 2, 0, 0, 0.1f};
    for (int k = 0; k < 7; k++)
        s.f[k][0] = S[k];
    toi_cost c = {0, 0, 0};
    ptrdiff_t r = t_mesh(im, 1, &s.s, m, 0, &h.h, &c);
    ptrdiff_t rs = t_tri_set(im, 1, &s.s, 16, &tr.t, 0, &hs.h);
    CHECK(c.np == 8 && c.nv <= 8, "the query tested %llu node children and %llu triangles, "
          "want at most 8 and the tall ones' 8", (unsigned long long)c.nv,
          (unsigned long long)c.np);
    CHECK(rs == 1 && hs.f[0][0] == 0.45f && hs.index[0] == 1, "set: %td, t %g index %u", rs,
          hs.f[0][0], hs.index[0]);
    CHECK(r == rs && h.f[0][0] == hs.f[0][0] && h.index[0] == hs.index[0],
          "mesh: %td, t %g index %u; the set query: %td, t %g index %u", r, h.f[0][0],
          h.index[0], rs, hs.f[0][0], hs.index[0]);
    toi_mesh_free(m);
    t_tri_free(&tr);
    t_spheres_free(&s);
    t_hits_free(&h);
    t_hits_free(&hs);
}

void group_mesh_contract(void)
{
    t_run_impls("contract/mesh cases", case_mesh_cases);
    t_run_impls("contract/capsule mesh cases", case_capsule_mesh_cases);
    t_run_impls("contract/mesh split along a denormal spread", case_mesh_denormal_spread);
    t_run("contract/mesh bad calls", case_mesh_bad, NULL);
    t_run("contract/mesh allocation failure", case_mesh_alloc, NULL);
    t_run("contract/mesh memory and layout", case_mesh_memory, NULL);
}

/* ---- differential: mesh = set, bit for bit, on every backend ---- */

/* The last backend the API offers: its set query is the reference for large meshes (the set
   queries of all backends are bit-identical to the scalar one: their own differential
   group), the scalar one for the rest. */
static const t_impl *fastest_api(void)
{
    for (int i = t_nimpls - 1; i > 0; i--)
        if (t_impls[i].via_api)
            return &t_impls[i];
    return &t_impls[0];
}

/* The scene's query on backend im: its spheres, or capsules caps when not NULL; the set query
   (set) or the mesh's. */
static ptrdiff_t scene_query(const t_impl *im, const t_scene *sc, const toi_capsules *caps,
                             int set, const toi_mesh *m, unsigned flags, const toi_hits *out,
                             toi_cost *cost)
{
    size_t n = sc->nsph;
    if (caps)
        return set ? t_capsules_tri_set(im, n, caps, sc->ntris, &sc->tri.t, flags, out)
                   : t_capsules_mesh(im, n, caps, m, flags, out, cost);
    return set ? t_tri_set(im, n, &sc->sph.s, sc->ntris, &sc->tri.t, flags, out)
               : t_mesh(im, n, &sc->sph.s, m, flags, out, cost);
}

/* One scene: every backend's mesh query against the reference set query, every flag, four
   output selections; the counters equal on every backend. caps: capsules instead of the
   scene's spheres. Returns queries checked. */
static size_t diff_scene(const t_scene *sc, const toi_capsules *caps, const toi_mesh *m,
                         const char *what, int deep)
{
    size_t n = sc->nsph, done = 0;
    const t_impl *ref = sc->ntris <= 500 ? &t_impls[0] : fastest_api();
    t_hits want, got;
    t_hits_alloc(&want, n);
    t_hits_alloc(&got, n);
    for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++)
        for (int sel = 0; sel < (deep ? 4 : 1); sel++) {
            toi_hits ow = select_outputs(&want, sel);
            t_hits_fill(&want, 0xA5);
            ptrdiff_t rw = scene_query(ref, sc, caps, 1, m, flags, &ow, NULL);
            toi_cost c0 = {0, 0, 0};
            for (int i = 0; i < t_nimpls; i++) {
                toi_hits og = select_outputs(&got, sel);
                t_hits_fill(&got, 0xA5);
                toi_cost c = {0, 0, 0};
                ptrdiff_t rg = scene_query(&t_impls[i], sc, caps, 0, m, flags, &og, &c);
                CHECK(rg == rw, "%s/%s flags %u: mesh returned %td, set %td", what,
                      t_impls[i].name, flags, rg, rw);
                size_t at = 0;
                int k = t_hits_diff(&want, &got, n, &at);
                if (k >= 0) {
                    char w[128];
                    snprintf(w, sizeof w, "%s/%s flags %u outputs %d", what, t_impls[i].name,
                             flags, sel);
                    report_diff(w, sc, &want, &got, k, at);
                }
                if (i == 0)
                    c0 = c;
                CHECK(c.nv == c0.nv && c.np == c0.np,
                      "%s/%s flags %u: cost %llu %llu, scalar %llu %llu", what,
                      t_impls[i].name, flags, (unsigned long long)c.nv,
                      (unsigned long long)c.np, (unsigned long long)c0.nv,
                      (unsigned long long)c0.np);
                done += n;
            }
        }
    t_hits_free(&want);
    t_hits_free(&got);
    return done;
}

static void diff_meshes(const void *ctx)
{
    (void)ctx;
    static const size_t sizes[] = {1, 2, 7, 8, 9, 17, 64, 65, 500, 4000, 30000, 100000};
    rng r = t_rng(0xD1FF);
    size_t done = 0, scenes = 0;
    for (int fam = 0; fam < MESH_NFAMILIES; fam++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            size_t nt = sizes[z];
            /* the large sizes on the heightfields, and only at full scale (CPU models and
               sanitizers run a small scale) */
            if (nt > 4000 && (fam != MESH_HEIGHTFIELD && fam != MESH_NONFINITE))
                continue;
            if (nt > 100 && nt > t_count(100000))
                continue;
            size_t ns = t_count(nt >= 30000 ? 16 : nt >= 4000 ? 64 : nt > 500 ? 128 : 256);
            t_scene sc;
            mesh_scene(&r, fam, nt, ns, &sc);
            toi_mesh *m = toi_mesh_build(nt, &sc.tri.t);
            CHECK(m != NULL, "build failed");
            if (!m) {
                mesh_scene_free(&sc);
                continue;
            }
            char what[96];
            snprintf(what, sizeof what, "%s of %zu", mesh_family_names[fam], nt);
            done += diff_scene(&sc, NULL, m, what, nt <= 500);
            /* deformed, some triangles gone or back, refitted */
            mesh_deform(&r, &sc);
            toi_cost cr = {0, 0, 0};
            CHECK(toi_mesh_refit(m, nt, &sc.tri.t, &cr) == TOI_OK && cr.nu > 0, "refit");
            snprintf(what, sizeof what, "%s of %zu, refitted", mesh_family_names[fam], nt);
            done += diff_scene(&sc, NULL, m, what, 0);
            scenes++;
            toi_mesh_free(m);
            mesh_scene_free(&sc);
        }
    printf("    %zu sphere-mesh queries bit-identical to the set query (%zu meshes, 1 to "
           "100000 triangles, before and after a refit)\n", done, scenes);
}

/* Capsules from a scene's spheres: the sphere's centre is the segment's midpoint, its motion
   and radius the capsule's; the segment's direction is drawn in a cube (exact float
   operations only: the same on every machine), its length up to 4 r + |v|_1 / 2, with a
   point capsule (p0 = p1) one time in eight, a long one (8x) one in eight, and a non-finite
   p1 one in 64. */
typedef struct t_capb {
    float *f[10]; /* x0 y0 z0 x1 y1 z1 vx vy vz r */
    toi_capsules c;
} t_capb;

static void caps_from_spheres(rng *r, const t_sph *s, size_t n, t_capb *b)
{
    for (int k = 0; k < 10; k++)
        b->f[k] = malloc((n ? n : 1) * sizeof(float));
    b->c = (toi_capsules){b->f[0], b->f[1], b->f[2], b->f[3], b->f[4],
                          b->f[5], b->f[6], b->f[7], b->f[8], b->f[9]};
    for (size_t i = 0; i < n; i++) {
        float v1 = fabsf(s->f[3][i]) + fabsf(s->f[4][i]) + fabsf(s->f[5][i]);
        float len = rng_unit(r) * (4.0f * fabsf(s->f[6][i]) + 0.5f * v1);
        uint32_t mode = rng_below(r, 64);
        len = mode < 8 ? 0.0f : mode < 16 ? 8.0f * len : len;
        for (int a = 0; a < 3; a++) {
            float h = 0.5f * len * rng_range(r, -1.0f, 1.0f);
            b->f[a][i] = s->f[a][i] - h;
            b->f[3 + a][i] = mode < 8 ? b->f[a][i] : s->f[a][i] + h;
            b->f[6 + a][i] = s->f[3 + a][i];
        }
        if (mode == 63)
            b->f[3 + rng_below(r, 3)][i] = rng_below(r, 2) ? INFINITY : __builtin_nanf("");
        b->f[9][i] = s->f[6][i];
    }
}

static void caps_free(t_capb *b)
{
    for (int k = 0; k < 10; k++)
        free(b->f[k]);
}

/* Capsules with p0 = p1 at the spheres' centres: the sphere mesh query, every output and
   counter bit for bit, on every backend. */
static void caps_as_spheres(const t_scene *sc, const toi_mesh *m, const char *what)
{
    size_t n = sc->nsph;
    const toi_capsules pc = {sc->sph.f[0], sc->sph.f[1], sc->sph.f[2], sc->sph.f[0],
                             sc->sph.f[1], sc->sph.f[2], sc->sph.f[3], sc->sph.f[4],
                             sc->sph.f[5], sc->sph.f[6]};
    t_hits a, b;
    t_hits_alloc(&a, n);
    t_hits_alloc(&b, n);
    for (int i = 0; i < t_nimpls; i++)
        for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
            toi_cost ca = {0, 0, 0}, cb = {0, 0, 0};
            t_hits_fill(&a, 0x3C);
            t_hits_fill(&b, 0x3C);
            ptrdiff_t ra = t_mesh(&t_impls[i], n, &sc->sph.s, m, flags, &a.h, &ca);
            ptrdiff_t rb = t_capsules_mesh(&t_impls[i], n, &pc, m, flags, &b.h, &cb);
            size_t at = 0;
            int k = t_hits_diff(&a, &b, n, &at);
            CHECK(k < 0 && ra == rb && ca.nv == cb.nv && ca.np == cb.np,
                  "%s/%s flags %u: point capsules differ from spheres (%s at %zu; count %td "
                  "vs %td; cost %llu %llu vs %llu %llu)", what, t_impls[i].name, flags,
                  k >= 0 ? t_out_name(k) : "-", at, rb, ra, (unsigned long long)cb.nv,
                  (unsigned long long)cb.np, (unsigned long long)ca.nv,
                  (unsigned long long)ca.np);
        }
    t_hits_free(&a);
    t_hits_free(&b);
}

static void diff_capsule_meshes(const void *ctx)
{
    (void)ctx;
    static const size_t sizes[] = {1, 7, 9, 64, 500, 4000, 30000};
    rng r = t_rng(0xCA95);
    size_t done = 0, scenes = 0;
    for (int fam = 0; fam < MESH_NFAMILIES; fam++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            size_t nt = sizes[z];
            if (nt > 500 && fam != MESH_HEIGHTFIELD)
                continue;
            if (nt > 100 && nt > t_count(30000))
                continue;
            size_t ns = t_count(nt >= 4000 ? 24 : nt > 64 ? 64 : 128);
            t_scene sc;
            mesh_scene(&r, fam, nt, ns, &sc);
            t_capb cb;
            caps_from_spheres(&r, &sc.sph, ns, &cb);
            toi_mesh *m = toi_mesh_build(nt, &sc.tri.t);
            CHECK(m != NULL, "build failed");
            if (m) {
                char what[96];
                snprintf(what, sizeof what, "capsules, %s of %zu", mesh_family_names[fam], nt);
                done += diff_scene(&sc, &cb.c, m, what, nt <= 64);
                if (nt <= 4000)
                    caps_as_spheres(&sc, m, what);
                mesh_deform(&r, &sc);
                CHECK(toi_mesh_refit(m, nt, &sc.tri.t, NULL) == TOI_OK, "refit");
                snprintf(what, sizeof what, "capsules, %s of %zu, refitted",
                         mesh_family_names[fam], nt);
                done += diff_scene(&sc, &cb.c, m, what, 0);
                scenes++;
            }
            toi_mesh_free(m);
            caps_free(&cb);
            mesh_scene_free(&sc);
        }
    printf("    %zu capsule-mesh queries bit-identical to the capsule set query (%zu meshes, 1 "
           "to 30000 triangles, before and after a refit); point capsules = spheres\n",
           done, scenes);
}

/* ---- the deepest trees: nested clusters ---- */

/* Node id's subtree: its triangles, and its levels of nodes into *levels. */
static size_t subtree_of(const toi_mesh *m, uint32_t id, int *levels)
{
    const toi_mesh_node *nd = &m->nodes[id];
    size_t n = 0;
    int below = 0;
    for (int c = 0; c < nd->nchild; c++)
        if (nd->count[c] == TOI_MESH_INNER) {
            int l = 0;
            n += subtree_of(m, nd->ref[c], &l);
            below = l > below ? l : below;
        } else
            n += nd->count[c];
    *levels = below + 1;
    return n;
}

/* The levels of the tree below node id (at level lev, the root's 1) into *deepest; each
   node at level TOI_MESH_SAH_DEPTH + 1, the first the builder splits at the median, checked:
   at most one level more than its triangles need (8^L leaves of 8), and counted. */
static size_t deep_levels(const toi_mesh *m, uint32_t id, int lev, int *deepest)
{
    if (lev > *deepest)
        *deepest = lev;
    size_t median_nodes = 0;
    if (lev == TOI_MESH_SAH_DEPTH + 1) {
        int l = 0;
        size_t n = subtree_of(m, id, &l), leaves = (n + TOI_MESH_W - 1) / TOI_MESH_W;
        int need = 0;
        for (size_t cap = 1; cap < leaves; cap *= TOI_MESH_W)
            need++;
        CHECK(l <= need + 1, "a median-split subtree of %zu triangles is %d levels deep, "
              "want at most %d", n, l, need + 1);
        median_nodes++;
    }
    const toi_mesh_node *nd = &m->nodes[id];
    for (int c = 0; c < nd->nchild; c++)
        if (nd->count[c] == TOI_MESH_INNER)
            median_nodes += deep_levels(m, nd->ref[c], lev + 1, deepest);
    return median_nodes;
}

/* Nested clusters: group g of triangles at x in [s, 2 s] (s = 0.17^g), s tall in y and z,
   and the groups after it inside x < s. Fifty groups of 56, each a level of the tree (the
   surface-area heuristic splits off the cluster inside, then the group's own triangles),
   take the builder past TOI_MESH_SAH_DEPTH; the rest, groups halving in size (4096
   triangles down to 8), are split at the median. Spheres aimed at the groups (some from
   outside every group, down through all of them) walk to the deepest leaves. Splitting the
   median levels by surface area, as the levels above, once left half of a node's triangles
   in one child: those levels halved the count instead of dividing it by 8, and a tree could
   outgrow the traversal stacks' bound (TOI_MESH_MAX_DEPTH; this one came within 6 levels of
   it, its median subtree of 7,983 triangles 6 levels deep). Ten halving groups, not more:
   the qemu CPU-model runs compute this test's set queries with the scalar reference. */
static void diff_deep_mesh(const void *ctx)
{
    (void)ctx;
    enum { SAH_GROUPS = 50, HALVING = 10 };
    rng r = t_rng(0xDEE9);
    size_t cnt[SAH_GROUPS + HALVING + 1], nt = 0;
    float sc_of[SAH_GROUPS + HALVING + 1];
    float s = 1.0f;
    for (int g = 0; g <= SAH_GROUPS + HALVING; g++) {
        int h = g - SAH_GROUPS; /* halving group h: 8 << (HALVING - 1 - h) */
        cnt[g] = h < 0 ? 56 : h < HALVING ? (size_t)8 << (HALVING - 1 - h) : 8;
        sc_of[g] = s;
        s *= 0.17f;
        nt += cnt[g];
    }
    t_scene sc;
    sc.ntris = nt;
    t_tri_alloc(&sc.tri, nt);
    size_t j = 0;
    for (int g = 0; g <= SAH_GROUPS + HALVING; g++)
        for (size_t i = 0; i < cnt[g]; i++, j++) {
            const float e = sc_of[g], x = e * (1.0f + rng_unit(&r));
            const float T[9] = {x, 0, 0, x + e * 0.01f, e, 0, x, 0, e};
            for (int k = 0; k < 9; k++)
                sc.tri.f[k][j] = T[k];
        }
    sc.nsph = t_count(48);
    t_spheres_alloc(&sc.sph, sc.nsph);
    for (size_t i = 0; i < sc.nsph; i++) {
        const int g = (int)rng_below(&r, SAH_GROUPS + HALVING + 1);
        const float e = sc_of[g], from = i % 8 == 0 ? 1.5f : 3.0f * e;
        const float S[7] = {from, e * rng_unit(&r), e * rng_unit(&r), -from,
                            e * rng_range(&r, -0.1f, 0.1f), e * rng_range(&r, -0.1f, 0.1f),
                            e * 0.05f * rng_unit(&r)};
        for (int k = 0; k < 7; k++)
            sc.sph.f[k][i] = S[k];
    }
    toi_mesh *m = toi_mesh_build(nt, &sc.tri.t);
    CHECK(m != NULL, "build failed");
    if (!m) {
        mesh_scene_free(&sc);
        return;
    }
    int deepest = 0;
    size_t median_nodes = deep_levels(m, 0, 1, &deepest);
    CHECK(median_nodes > 0 && deepest <= TOI_MESH_MAX_DEPTH,
          "%zu nodes split at the median, %d levels (want some, and at most %d)", median_nodes,
          deepest, TOI_MESH_MAX_DEPTH);
    t_capb cb;
    caps_from_spheres(&r, &sc.sph, sc.nsph, &cb);
    size_t done = diff_scene(&sc, NULL, m, "nested clusters", 0);
    done += diff_scene(&sc, &cb.c, m, "capsules, nested clusters", 0);
    t_hits h;
    t_hits_alloc(&h, sc.nsph);
    ptrdiff_t hits = t_mesh(fastest_api(), sc.nsph, &sc.sph.s, m, 0, &h.h, NULL);
    CHECK(hits > 0, "no sphere hits the nested clusters");
    printf("    %zu triangles in %d levels (%zu nodes split at the median), %zu sphere and "
           "capsule queries bit-identical to the set queries (%td of %zu spheres hit)\n", nt,
           deepest, median_nodes, done, hits, sc.nsph);
    t_hits_free(&h);
    caps_free(&cb);
    toi_mesh_free(m);
    mesh_scene_free(&sc);
}

/* ---- real models: meshes no one here made (Debian's assimp-testmodels) ---- */

#if defined(TOI_TEST_PARTICLES) /* the model reader (examples/meshload.c) is linked in */

#define MODELS "/usr/share/assimp/models/"
static const char *const real_models[] = {
    MODELS "STL/Wuson.stl",          /* a figure, 3,732 triangles (binary STL) */
    MODELS "STL/Spider_binary.stl",  /* thin legs, 1,368 triangles */
    MODELS "STL/sphereWithHole.stl", /* a CAD export, 285 triangles (ASCII STL) */
    MODELS "OBJ/regr01.obj",         /* 2,710 triangles, about 1,600 units across */
};

/* Spheres aimed at points of the model's triangles: started a distance of 10^-4, 10^-2 or
   5 % of the model's size (plus a third of its size one time in six) from a random point of
   a random triangle, moving toward it by 0.5 to 2.5 times that distance (sideways a little
   one time in six), with radii of that scale (0 one time in six). */
static void real_model_spheres(rng *r, const t_scene *sc, float size, size_t n, t_sph *s)
{
    t_spheres_alloc(s, n);
    for (size_t i = 0; i < n; i++) {
        const uint32_t mode = rng_below(r, 6), ti = rng_below(r, (uint32_t)sc->ntris);
        const float w0 = rng_unit(r), w1 = rng_range(r, 0.0f, 1.0f - w0);
        const float e = size * (mode == 0 ? 1e-4f : mode == 1 ? 1e-2f : 0.05f);
        const float dist = rng_range(r, 0.0f, 4.0f) * e + (mode == 4 ? size / 3 : 0.0f);
        const float rad = mode == 3 ? 0.0f : rng_unit(r) * e, speed = rng_range(r, 0.5f, 2.5f);
        float d[3], l = 0.0f;
        for (int k = 0; k < 3; k++) {
            d[k] = rng_range(r, -1.0f, 1.0f);
            l += d[k] * d[k];
        }
        l = sqrtf(l) + 1e-6f;
        for (int k = 0; k < 3; k++) {
            const float *T = sc->tri.f[k], *U = sc->tri.f[3 + k], *V = sc->tri.f[6 + k];
            const float aim = T[ti] * (1.0f - w0 - w1) + U[ti] * w0 + V[ti] * w1;
            const float side = mode == 5 ? rng_range(r, -1.0f, 1.0f) * e : 0.0f;
            s->f[k][i] = aim + d[k] / l * dist + rng_range(r, -0.5f, 0.5f) * e;
            s->f[3 + k][i] = (aim - s->f[k][i]) * speed + side;
        }
        s->f[6][i] = rad;
    }
}

/* Each model: the sphere and capsule mesh queries on every backend against the set
   queries, every flag, before and after a refit of the deformed model. The generated
   meshes above are random soups, heightfields and clusters; a modelled surface has shared
   edges and vertices of every valence, thin parts and a CAD exporter's slivers. */
static void diff_real_models(const void *ctx)
{
    (void)ctx;
    rng r = t_rng(0x3EA1);
    size_t done = 0, models = 0, tris = 0, hits = 0, queries = 0;
    for (size_t mi = 0; mi < sizeof real_models / sizeof real_models[0]; mi++) {
        float *T[9];
        size_t nt = 0;
        char err[256];
        if (mesh_load(real_models[mi], T, &nt, err, sizeof err) != 0) {
            CHECK(0, "%s", err);
            continue;
        }
        t_scene sc;
        sc.ntris = nt;
        t_tri_alloc(&sc.tri, nt);
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int k = 0; k < 9; k++) {
            for (size_t i = 0; i < nt; i++) {
                sc.tri.f[k][i] = T[k][i];
                lo[k % 3] = T[k][i] < lo[k % 3] ? T[k][i] : lo[k % 3];
                hi[k % 3] = T[k][i] > hi[k % 3] ? T[k][i] : hi[k % 3];
            }
            free(T[k]);
        }
        float size = 0.0f;
        for (int k = 0; k < 3; k++)
            size = hi[k] - lo[k] > size ? hi[k] - lo[k] : size;
        sc.nsph = t_count(64);
        real_model_spheres(&r, &sc, size, sc.nsph, &sc.sph);
        t_capb cb;
        caps_from_spheres(&r, &sc.sph, sc.nsph, &cb);
        toi_mesh *m = toi_mesh_build(nt, &sc.tri.t);
        CHECK(m != NULL, "build failed: %s", real_models[mi]);
        if (m) {
            const char *name = strrchr(real_models[mi], '/') + 1;
            char what[96];
            snprintf(what, sizeof what, "%s", name);
            done += diff_scene(&sc, NULL, m, what, 0);
            snprintf(what, sizeof what, "capsules, %s", name);
            done += diff_scene(&sc, &cb.c, m, what, 0);
            caps_as_spheres(&sc, m, what);
            t_hits h;
            t_hits_alloc(&h, sc.nsph);
            const ptrdiff_t hs = t_mesh(fastest_api(), sc.nsph, &sc.sph.s, m, 0, &h.h, NULL);
            const ptrdiff_t hc = t_capsules_mesh(fastest_api(), sc.nsph, &cb.c, m, 0, &h.h, NULL);
            t_hits_free(&h);
            CHECK(hs > 0 && hc > 0, "%s: %td spheres and %td capsules hit", name, hs, hc);
            hits += (size_t)(hs > 0 ? hs : 0) + (size_t)(hc > 0 ? hc : 0);
            mesh_deform(&r, &sc);
            CHECK(toi_mesh_refit(m, nt, &sc.tri.t, NULL) == TOI_OK, "refit");
            snprintf(what, sizeof what, "%s, refitted", name);
            done += diff_scene(&sc, NULL, m, what, 0);
            snprintf(what, sizeof what, "capsules, %s, refitted", name);
            done += diff_scene(&sc, &cb.c, m, what, 0);
            models++;
            tris += nt;
            queries += 2 * sc.nsph;
        }
        toi_mesh_free(m);
        caps_free(&cb);
        mesh_scene_free(&sc);
    }
    printf("    %zu sphere and capsule mesh queries bit-identical to the set queries (%zu "
           "models, %zu triangles, before and after a refit; %zu of the %zu spheres and "
           "capsules hit the models as built, flags 0)\n", done, models, tris, hits, queries);
}
#endif

void group_mesh_differential(void)
{
    t_run("differential/mesh = set query, every backend", diff_meshes, NULL);
    t_run("differential/capsule mesh = capsule set query, every backend", diff_capsule_meshes,
          NULL);
    t_run("differential/mesh of nested clusters: median levels, every backend", diff_deep_mesh,
          NULL);
#if defined(TOI_TEST_PARTICLES) /* the model reader (examples/meshload.c) is linked in */
    FILE *fp = fopen(real_models[0], "rb");
    if (!fp) {
        printf("skip meshes of real models: %s is missing (Debian's assimp-testmodels)\n",
               real_models[0]);
        return;
    }
    fclose(fp);
    t_run("differential/sphere and capsule mesh = set query on real models, every backend",
          diff_real_models, NULL);
#endif
}

/* ---- accuracy: the mesh's answer against the oracle over all its triangles ---- */

static void acc_meshes(const void *ctx)
{
    (void)ctx;
    rng r = t_rng(0xACC9);
    size_t total = t_acc_count(600), done = 0, fails = 0, hits = 0;
    static const int fams[3] = {MESH_SOUP, MESH_HEIGHTFIELD, MESH_SLIVERS};
    acc_worst_q = 0;
    while (done < total && fails < 5) {
        int fam = fams[done / 64 % 3];
        size_t nt = 12 + rng_below(&r, 40), ns = 64;
        unsigned flags = rng_below(&r, 4);
        t_scene sc;
        mesh_scene(&r, fam, nt, ns, &sc);
        for (size_t i = 0; i < ns; i++) { /* valid spheres only: the oracle judges contacts */
            int ok = sc.sph.f[6][i] >= 0.0f;
            for (int k = 0; k < 7; k++)
                ok &= sc.sph.f[k][i] - sc.sph.f[k][i] == 0.0f;
            if (!ok)
                for (int k = 0; k < 7; k++)
                    sc.sph.f[k][i] = k == 6 ? 0.25f : 0.5f;
        }
        toi_mesh *m = toi_mesh_build(nt, &sc.tri.t);
        t_hits h;
        t_hits_alloc(&h, ns);
        t_mesh(&t_impls[0], ns, &sc.sph.s, m, flags, &h.h, NULL);
        for (size_t i = 0; i < ns && fails < 5; i++) {
            float S[7], o[8];
            for (int k = 0; k < 7; k++)
                S[k] = sc.sph.f[k][i];
            for (int k = 0; k < 8; k++)
                o[k] = h.f[k][i];
            /* over all triangles: the earliest shrunk and grown contacts of those judged
               unambiguous, and whether any is ambiguous */
            ld first_s = INFINITY, first_g = INFINITY;
            int any_amb = 0, hit = o[0] != TOI_NO_HIT, ok = 1;
            tri_judge jw;
            int have_jw = 0;
            for (size_t j = 0; j < nt; j++) {
                float T[9];
                int finite = 1;
                for (int k = 0; k < 9; k++)
                    T[k] = sc.tri.f[k][j], finite &= T[k] - T[k] == 0.0f;
                if (!finite)
                    continue;
                tri_judge jj = tri_judge_make(S, T, flags);
                any_amb |= jj.amb;
                if (jj.hs.hit && !jj.amb && jj.hs.t < first_s)
                    first_s = jj.hs.t;
                if (jj.hg.hit && jj.hg.t < first_g)
                    first_g = jj.hg.t;
                if (hit && j == h.index[i])
                    jw = jj, have_jw = 1;
            }
            if (first_s <= 1 && !hit) {
                CHECK(0, "mesh query %zu: false miss (a shrunk query hits at %.9Lg)", done + i,
                      first_s);
                ok = 0;
            }
            if (hit) {
                CHECK(have_jw, "mesh query %zu: index %u", done + i, h.index[i]);
                if (!have_jw) {
                    fails++;
                    continue;
                }
                if (!jw.amb && !jw.hg.hit) {
                    CHECK(0, "mesh query %zu: false hit on triangle %u at %.9g", done + i,
                          h.index[i], o[0]);
                    ok = 0;
                }
                ld slack = 2 * (ld)FLT_EPSILON;
                if (!any_amb && !(o[0] >= first_g - slack && o[0] <= first_s + slack)) {
                    CHECK(0, "mesh query %zu: t = %.9g outside [%.9Lg, %.9Lg]", done + i, o[0],
                          first_g, first_s);
                    ok = 0;
                }
                if (ok && !jw.amb) {
                    hits++;
                    ok = tri_judge_outputs(&jw, o, h.feature[i], done + i);
                }
                if (!ok) {
                    float T[9];
                    for (int k = 0; k < 9; k++)
                        T[k] = sc.tri.f[k][h.index[i]];
                    tri_judge_print(&jw, S, T, o, h.feature[i], flags);
                }
            }
            fails += !ok;
        }
        done += ns;
        t_hits_free(&h);
        toi_mesh_free(m);
        mesh_scene_free(&sc);
    }
    printf("    %zu sphere-mesh queries (%zu hits judged) against the oracle over every "
           "triangle; point error at most %.3Lg of its bound\n", done, hits, acc_worst_q);
}

void group_mesh_accuracy(void)
{
    t_run("accuracy/mesh: scalar vs long-double oracle", acc_meshes, NULL);
}

/* ---- threads: many threads querying one mesh ---- */

#define MT_THREADS 8

typedef struct mt_arg {
    const toi_mesh *m;
    const t_scene *sc;
    const t_hits *want;
    int errors, rounds;
} mt_arg;

static void *mt_worker(void *p)
{
    mt_arg *a = p;
    t_hits h;
    t_hits_alloc(&h, a->sc->nsph);
    for (int round = 0; round < a->rounds; round++) {
        const t_impl *im = &t_impls[round % t_nimpls];
        toi_cost c = {0, 0, 0};
        ptrdiff_t r = toi_sweep_spheres_mesh_on(im->k, a->sc->nsph, &a->sc->sph.s, a->m,
                                                TOI_ALL_OVERLAPS, &h.h, &c);
        size_t at = 0;
        if (r < 0 || t_hits_diff(a->want, &h, a->sc->nsph, &at) >= 0)
            a->errors++;
    }
    t_hits_free(&h);
    return NULL;
}

static void threads_mesh(const void *ctx)
{
    (void)ctx;
    rng r = t_rng(0x7EAD);
    t_scene sc;
    mesh_scene(&r, MESH_HEIGHTFIELD, 20000, 512, &sc);
    toi_mesh *m = toi_mesh_build(sc.ntris, &sc.tri.t);
    t_hits want;
    t_hits_alloc(&want, sc.nsph);
    toi_sweep_spheres_mesh_on(t_impls[0].k, sc.nsph, &sc.sph.s, m, TOI_ALL_OVERLAPS, &want.h,
                              NULL);
    pthread_t th[MT_THREADS];
    mt_arg a[MT_THREADS];
    for (int i = 0; i < MT_THREADS; i++) {
        a[i] = (mt_arg){m, &sc, &want, 0, 2 * t_nimpls};
        pthread_create(&th[i], NULL, mt_worker, &a[i]);
    }
    int errors = 0;
    for (int i = 0; i < MT_THREADS; i++) {
        pthread_join(th[i], NULL);
        errors += a[i].errors;
    }
    CHECK(errors == 0, "%d of %d concurrent queries differed from the single-threaded one",
          errors, MT_THREADS * 2 * t_nimpls);
    t_hits_free(&want);
    toi_mesh_free(m);
    mesh_scene_free(&sc);
}

void group_mesh_threads(void)
{
    t_run("threads/eight threads querying one mesh on every backend", threads_mesh, NULL);
}

/* ---- golden: results and counters hash to one value on every backend and machine ---- */

/* Change only with a deliberate change of results or of the build, and say so. */
#define GOLDEN_MESH 0x2a0c17301e032933ull
#define GOLDEN_CAPSULE_MESH 0x7ce3497343d873b4ull

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* Every output of a call, its count and its cost counters. */
static uint64_t fnv_results(uint64_t h, const t_hits *o, size_t n, ptrdiff_t ret,
                            const toi_cost *c)
{
    for (int k = 0; k < T_NOUT; k++)
        h = fnv(h, o->f[k], n * sizeof(float));
    h = fnv(h, o->index, n * sizeof(uint32_t));
    h = fnv(h, o->feature, n);
    h = fnv(h, &ret, sizeof ret);
    return fnv(h, c, sizeof *c);
}

static void golden_mesh(const void *ctx)
{
    const t_impl *im = ctx;
    rng r = {0x601DE};
    uint64_t h = 0xcbf29ce484222325ull;
    for (int fam = 0; fam < MESH_NFAMILIES; fam++) {
        t_scene sc;
        mesh_scene(&r, fam, 3000, 500, &sc);
        toi_mesh *m = toi_mesh_build(sc.ntris, &sc.tri.t);
        t_hits o;
        t_hits_alloc(&o, sc.nsph);
        for (int pass = 0; pass < 2; pass++) {
            for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
                toi_cost c = {0, 0, 0};
                ptrdiff_t ret = t_mesh(im, sc.nsph, &sc.sph.s, m, flags, &o.h, &c);
                h = fnv_results(h, &o, sc.nsph, ret, &c);
            }
            toi_cost cr = {0, 0, 0};
            mesh_deform(&r, &sc);
            toi_mesh_refit(m, sc.ntris, &sc.tri.t, &cr);
            h = fnv(h, &cr, sizeof cr);
        }
        uint64_t bytes = toi_mesh_bytes(m);
        h = fnv(h, &bytes, sizeof bytes);
        t_hits_free(&o);
        toi_mesh_free(m);
        mesh_scene_free(&sc);
    }
    printf("    %s: 0x%016llx\n", im->name, (unsigned long long)h);
    CHECK(h == GOLDEN_MESH, "%s hashes to 0x%016llx, golden 0x%016llx", im->name,
          (unsigned long long)h, (unsigned long long)GOLDEN_MESH);
}

/* Capsules (caps_from_spheres) through the same kinds of meshes. */
static void golden_capsule_mesh(const void *ctx)
{
    const t_impl *im = ctx;
    rng r = {0xCA601D};
    uint64_t h = 0xcbf29ce484222325ull;
    for (int fam = 0; fam < MESH_NFAMILIES; fam++) {
        t_scene sc;
        mesh_scene(&r, fam, 1000, 200, &sc);
        t_capb cb;
        caps_from_spheres(&r, &sc.sph, sc.nsph, &cb);
        toi_mesh *m = toi_mesh_build(sc.ntris, &sc.tri.t);
        t_hits o;
        t_hits_alloc(&o, sc.nsph);
        for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
            toi_cost c = {0, 0, 0};
            ptrdiff_t ret = t_capsules_mesh(im, sc.nsph, &cb.c, m, flags, &o.h, &c);
            h = fnv_results(h, &o, sc.nsph, ret, &c);
        }
        t_hits_free(&o);
        toi_mesh_free(m);
        caps_free(&cb);
        mesh_scene_free(&sc);
    }
    printf("    %s: 0x%016llx\n", im->name, (unsigned long long)h);
    CHECK(h == GOLDEN_CAPSULE_MESH, "%s hashes to 0x%016llx, golden 0x%016llx", im->name,
          (unsigned long long)h, (unsigned long long)GOLDEN_CAPSULE_MESH);
}

void group_mesh_golden(void)
{
    t_run_impls("golden hash, meshes", golden_mesh);
    t_run_impls("golden hash, capsule meshes", golden_capsule_mesh);
}
