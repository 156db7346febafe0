/* mesh_gen.c - seeded meshes and sphere batches for the mesh test groups (exact float
   operations and sqrt only, so every architecture draws the same inputs) */
#include "mesh_gen.h"
#include "tri_gen.h"

#include <math.h>

const char *const mesh_family_names[MESH_NFAMILIES] = {
    "soup", "heightfield", "coincident copies", "slivers and degenerate", "non-finite"};

static void put_tri(t_scene *sc, size_t j, const float T[9])
{
    for (int k = 0; k < 9; k++)
        sc->tri.f[k][j] = T[k];
}

static void put_sphere(t_scene *sc, size_t i, const float S[7])
{
    for (int k = 0; k < 7; k++)
        sc->sph.f[k][i] = S[k];
}

/* Height of a grid point: smooth bumps plus a little seeded noise. */
static float height(rng *r, int x, int y)
{
    float a = (float)((x * 7 + y * 13) % 17) * 0x1p-4f, b = (float)((x * 5 + y * 3) % 11) * 0x1p-4f;
    return (a - b) * 0.5f + rng_range(r, -0.1f, 0.1f);
}

/* A heightfield of ntris triangles over unit cells (the last row cut short), z ~ [-1, 1];
   copies: the second half repeats the first (coincident triangles, half of them with the
   winding reversed). */
static void heightfield(rng *r, t_scene *sc, size_t ntris, int copies)
{
    size_t cells = copies ? (ntris / 2 + 1) / 2 : (ntris + 1) / 2;
    size_t G = 1;
    while (G * G < cells)
        G++;
    size_t j = 0, base = copies ? ntris / 2 : ntris;
    for (size_t c = 0; c < cells && j < base; c++) {
        int x = (int)(c % G), y = (int)(c / G);
        float z00 = height(r, x, y), z10 = height(r, x + 1, y), z01 = height(r, x, y + 1),
              z11 = height(r, x + 1, y + 1);
        const float t0[9] = {(float)x, (float)y, z00, (float)x + 1, (float)y, z10,
                             (float)x + 1, (float)y + 1, z11};
        const float t1[9] = {(float)x, (float)y, z00, (float)x + 1, (float)y + 1, z11,
                             (float)x, (float)y + 1, z01};
        put_tri(sc, j++, t0);
        if (j < base)
            put_tri(sc, j++, t1);
    }
    for (; j < ntris; j++) { /* copies of the first half */
        float T[9];
        size_t from = j - base;
        for (int k = 0; k < 9; k++)
            T[k] = sc->tri.f[k][from];
        if (from & 1)
            for (int k = 0; k < 3; k++) { /* b <-> c: the other winding */
                float t = T[3 + k];
                T[3 + k] = T[6 + k];
                T[6 + k] = t;
            }
        put_tri(sc, j, T);
    }
    /* spheres over the field, moving any way, some down onto it */
    float span = (float)G;
    for (size_t i = 0; i < sc->nsph; i++) {
        float S[7];
        S[0] = rng_range(r, -1, span + 1), S[1] = rng_range(r, -1, span + 1);
        S[2] = rng_range(r, -1.5f, 3.0f);
        float len = rng_range(r, 0.2f, 4.0f);
        float d[3], l;
        do {
            for (int k = 0; k < 3; k++)
                d[k] = rng_range(r, -1, 1);
            if (rng_below(r, 2))
                d[2] = -fabsf(d[2]);
            l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        } while (!(l > 0.1f && l <= 1));
        for (int k = 0; k < 3; k++)
            S[3 + k] = d[k] / l * len;
        S[6] = rng_below(r, 16) == 0 ? 0.0f : rng_range(r, 0.05f, 1.0f);
        put_sphere(sc, i, S);
    }
}

/* Triangles of the triangle groups' families (all but the specials; or needles, slivers,
   degenerate and sliding ones), each moved to a random place in a box that holds them about
   as densely at every size; three in four spheres are aimed at a random triangle of the
   mesh, the others go anywhere. */
static void soup(rng *r, t_scene *sc, size_t ntris, int slivers)
{
    float side = 4.0f;
    while (side * side * side < (float)ntris * 8.0f)
        side *= 2.0f;
    for (size_t j = 0; j < ntris; j++) {
        float S[7], T[9], off[3];
        int fam = slivers ? (rng_below(r, 4) ? 7 : 8) : (int)rng_below(r, TRI_FAM_SPECIAL);
        tri_gen(r, fam, S, T);
        float k1 = 1.0f; /* the 1e3 family and the far one brought to a few units */
        while (fabsf(T[3] - T[0]) * k1 > 4.0f || fabsf(T[6] - T[0]) * k1 > 4.0f)
            k1 *= 0.5f;
        for (int k = 0; k < 3; k++)
            off[k] = rng_range(r, 0, side);
        for (int v = 2; v >= 0; v--)
            for (int k = 0; k < 3; k++)
                T[3 * v + k] = (T[3 * v + k] - T[k]) * k1 + off[k];
        put_tri(sc, j, T);
    }
    for (size_t i = 0; i < sc->nsph; i++) {
        float S[7];
        if (i % 4 == 3) { /* anywhere */
            for (int k = 0; k < 3; k++) {
                S[k] = rng_range(r, -1, side + 1);
                S[3 + k] = rng_range(r, -4, 4);
            }
            S[6] = rng_range(r, 0, 1);
        } else { /* at a random triangle of the mesh */
            size_t t = rng_below(r, (uint32_t)ntris);
            float q[3], u = rng_unit(r), w = rng_unit(r);
            if (u + w > 1)
                u = 1 - u, w = 1 - w;
            for (int k = 0; k < 3; k++)
                q[k] = sc->tri.f[k][t] + u * (sc->tri.f[3 + k][t] - sc->tri.f[k][t]) +
                       w * (sc->tri.f[6 + k][t] - sc->tri.f[k][t]);
            float k0 = rng_range(r, 0.6f, 3.0f);
            for (int k = 0; k < 3; k++) {
                S[k] = q[k] + rng_range(r, -2, 2);
                S[3 + k] = (q[k] - S[k]) * k0;
            }
            S[6] = rng_below(r, 16) == 0 ? 0.0f : rng_range(r, 0.01f, 0.5f);
        }
        put_sphere(sc, i, S);
    }
}

void mesh_scene(rng *r, int fam, size_t ntris, size_t nsph, t_scene *sc)
{
    t_tri_alloc(&sc->tri, ntris ? ntris : 1);
    t_spheres_alloc(&sc->sph, nsph);
    sc->ntris = ntris;
    sc->nsph = nsph;
    switch (fam) {
    case MESH_SOUP:
        soup(r, sc, ntris, 0);
        break;
    case MESH_SLIVERS:
        soup(r, sc, ntris, 1);
        break;
    case MESH_HEIGHTFIELD:
    case MESH_NONFINITE:
        heightfield(r, sc, ntris, 0);
        break;
    case MESH_COINCIDENT:
        heightfield(r, sc, ntris, 1);
        break;
    }
    if (fam == MESH_NONFINITE) /* about 5 % of the triangles get a NaN or infinite vertex */
        for (size_t j = 0; j < ntris; j++)
            if (rng_below(r, 20) == 0) {
                static const float bad[3] = {__builtin_nanf(""), INFINITY, -INFINITY};
                uint32_t at = rng_below(r, 9); /* draws sequenced (see tri_gen.c) */
                sc->tri.f[at][j] = bad[rng_below(r, 3)];
            }
    /* a few invalid spheres: NaN, infinite, negative radius */
    for (size_t i = 0; i < nsph; i++)
        if (rng_below(r, 64) == 0) {
            static const float bad[3] = {__builtin_nanf(""), INFINITY, -0.5f};
            int which = (int)rng_below(r, 3);
            sc->sph.f[which == 2 ? 6 : rng_below(r, 7)][i] = bad[which];
        }
}

void mesh_scene_free(t_scene *sc)
{
    t_tri_free(&sc->tri);
    t_spheres_free(&sc->sph);
}

void mesh_deform(rng *r, t_scene *sc)
{
    for (size_t j = 0; j < sc->ntris; j++) {
        int finite = 1;
        for (int k = 0; k < 9; k++)
            finite &= sc->tri.f[k][j] - sc->tri.f[k][j] == 0.0f;
        if (!finite && rng_below(r, 2)) { /* comes back */
            for (int k = 0; k < 9; k++)
                sc->tri.f[k][j] = rng_range(r, -2, 2) + (float)(k % 3 == 2 ? 0 : (int)j % 16);
            continue;
        }
        if (rng_below(r, 50) == 0) { /* goes away */
            sc->tri.f[rng_below(r, 9)][j] = __builtin_nanf("");
            continue;
        }
        for (int k = 0; k < 9; k++)
            sc->tri.f[k][j] += rng_range(r, -0.25f, 0.25f);
    }
}
