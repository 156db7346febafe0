/* scene.c - generated benchmark scenes: about half hits in random order, a few percent
   already overlapping at t = 0, the rest misses of three kinds (passing by, falling short,
   moving apart) */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bench_query_name[Q_COUNT] = {"spheres", "pairs",    "plane",
                                               "tri",     "set-near", "set-far"};

int query_available(bench_query q)
{
#ifdef TOI_BENCH_TRIANGLES
    (void)q;
    return 1;
#else
    return !query_is_tri(q);
#endif
}

/* Share of queries in each class. Hits and misses are drawn independently per query, so the
   outcome of one query says nothing about the next: a branchy kernel mispredicts as it would
   on a real broadphase's output. */
#define P_OVERLAP 0.03f /* touching at t = 0 and approaching: a hit at t = 0 */
#define P_HIT 0.47f     /* first contact inside (0, 1) */
#define WORLD 50.0f     /* scene half-size: queries far from the origin, as in a level */

static void *xmalloc(size_t bytes)
{
    /* 64-byte aligned so every backend sees the same alignment; size rounded up to it */
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p) {
        fprintf(stderr, "toi_bench: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

static void random_dir(bench_rng *g, float d[3])
{
    float z = rng_range(g, -1.0f, 1.0f), phi = rng_range(g, 0.0f, 6.2831853f);
    float s = sqrtf(1.0f - z * z);
    d[0] = s * cosf(phi), d[1] = s * sinf(phi), d[2] = z;
}

/* A random unit vector perpendicular to unit w. */
static void perp_dir(bench_rng *g, const float w[3], float p[3])
{
    for (;;) {
        float d[3];
        random_dir(g, d);
        float k = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];
        for (int i = 0; i < 3; i++)
            p[i] = d[i] - k * w[i];
        float len = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (len > 0.1f) {
            for (int i = 0; i < 3; i++)
                p[i] /= len;
            return;
        }
    }
}

/* Relative geometry of one sphere pair: A starts at l from B and moves v relative to it.
   Along the path the closest approach to B is the impact parameter `bimp`, reached after the
   path distance s; contact begins (s - h) into the path with h the half chord. */
static void gen_pair(bench_rng *g, aos_sphere *A, aos_sphere *B)
{
    float ra = rng_range(g, 0.05f, 1.0f), rb = rng_range(g, 0.05f, 1.0f), R = ra + rb;
    float l[3], v[3], w[3], p[3];
    float u = rng_unit(g);
    random_dir(g, w);
    perp_dir(g, w, p);
    if (u < P_OVERLAP) {
        /* overlapping, moving closer: l along p, motion with a component against it */
        float dist = R * rng_range(g, 0.05f, 0.95f), sp = R * rng_range(g, 0.2f, 2.0f);
        for (int i = 0; i < 3; i++) {
            l[i] = p[i] * dist;
            v[i] = -p[i] * sp + w[i] * sp * rng_range(g, -1.0f, 1.0f);
        }
    } else {
        int hit = u < P_OVERLAP + P_HIT;
        float kind = rng_unit(g);
        int passby = !hit && kind < 0.333f, apart = !hit && kind > 0.667f;
        float bimp = passby ? R * rng_range(g, 1.05f, 3.0f) : R * rng_range(g, 0.0f, 0.95f);
        float h = passby ? 0.0f : sqrtf(R * R - bimp * bimp);
        float s = h + R * rng_range(g, 0.1f, 2.0f);
        float L;
        if (hit)
            L = (s - h) / rng_range(g, 0.05f, 0.95f);
        else if (passby)
            L = s * rng_range(g, 0.5f, 3.0f);
        else if (apart)
            L = -s * rng_range(g, 0.5f, 3.0f);
        else
            L = (s - h) / rng_range(g, 1.1f, 3.0f); /* falls short of contact */
        for (int i = 0; i < 3; i++) {
            l[i] = -w[i] * s + p[i] * bimp;
            v[i] = w[i] * L;
        }
    }
    /* B anywhere in the world with its own motion; A relative to it. */
    float vb[3];
    random_dir(g, vb);
    float speed = rng_range(g, 0.0f, 2.0f);
    for (int i = 0; i < 3; i++) {
        B->c[i] = rng_range(g, -WORLD, WORLD);
        B->v[i] = vb[i] * speed;
        A->c[i] = B->c[i] + l[i];
        A->v[i] = B->v[i] + v[i];
    }
    A->r = ra, B->r = rb;
}

/* One sphere against the plane: signed distance s0 of its centre, normal speed vn. */
static void gen_plane_sphere(bench_rng *g, const toi_plane *P, aos_sphere *S)
{
    const float n[3] = {P->nx, P->ny, P->nz};
    float r = rng_range(g, 0.05f, 1.0f), s0, vn;
    float u = rng_unit(g);
    if (u < P_OVERLAP) {
        s0 = r * rng_range(g, 0.1f, 0.95f);
        vn = -r * rng_range(g, 0.1f, 2.0f);
    } else {
        s0 = r + r * rng_range(g, 0.1f, 3.0f);
        if (u < P_OVERLAP + P_HIT)
            vn = -(s0 - r) / rng_range(g, 0.05f, 0.95f);
        else if (rng_unit(g) < 0.5f)
            vn = r * rng_range(g, 0.01f, 2.0f); /* moving away */
        else
            vn = -(s0 - r) / rng_range(g, 1.1f, 3.0f); /* falls short */
    }
    float t1[3], t2[3];
    perp_dir(g, n, t1);
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
    float a = rng_range(g, -WORLD, WORLD), b = rng_range(g, -WORLD, WORLD);
    float va = rng_range(g, -2.0f, 2.0f), vb = rng_range(g, -2.0f, 2.0f);
    for (int i = 0; i < 3; i++) {
        S->c[i] = n[i] * (P->d + s0) + t1[i] * a + t2[i] * b;
        S->v[i] = n[i] * vn + t1[i] * va + t2[i] * vb;
    }
    S->r = r;
}

/* ---- triangles ---- */

static void sub3(const float a[3], const float b[3], float r[3])
{
    r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2];
}

static void cross3(const float a[3], const float b[3], float r[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static float len3(const float a[3])
{
    return sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* A random, reasonably shaped triangle (edges 0.5 to 3) with its corner a near `at`. */
static void gen_triangle(bench_rng *g, const float at[3], aos_tri *T)
{
    for (;;) {
        float d1[3], d2[3], e1[3], e2[3], nrm[3];
        random_dir(g, d1);
        random_dir(g, d2);
        float l1 = rng_range(g, 0.5f, 3.0f), l2 = rng_range(g, 0.5f, 3.0f);
        for (int i = 0; i < 3; i++) {
            T->a[i] = at[i];
            T->b[i] = at[i] + d1[i] * l1;
            T->c[i] = at[i] + d2[i] * l2;
        }
        sub3(T->b, T->a, e1);
        sub3(T->c, T->a, e2);
        cross3(e1, e2, nrm);
        if (len3(nrm) > 0.3f * l1 * l2) /* no slivers: angle at a between ~17 and ~163 deg */
            return;
    }
}

/* A sphere against one triangle, like gen_pair: hits touch the face at a point well inside
   (so they are certain), misses fall short, move away, or pass beside an edge at more than
   the radius; a few start overlapping the face and approach it. */
static void gen_tri_sphere(bench_rng *g, const aos_tri *T, float rmax, aos_sphere *S)
{
    float e1[3], e2[3], N[3], q[3];
    sub3(T->b, T->a, e1);
    sub3(T->c, T->a, e2);
    cross3(e1, e2, N);
    float nl = len3(N);
    for (int i = 0; i < 3; i++)
        N[i] /= nl;
    float side = rng_unit(g) < 0.5f ? 1.0f : -1.0f; /* two-sided: either face */
    float r = rng_range(g, 0.05f, rmax);
    /* a point inside: barycentric weights of at least 0.1 each */
    float u = rng_range(g, 0.1f, 0.8f), v = rng_range(g, 0.1f, 0.9f - u);
    for (int i = 0; i < 3; i++)
        q[i] = T->a[i] + u * e1[i] + v * e2[i];
    float k = rng_unit(g), dir[3], tang[3], L;
    perp_dir(g, N, tang);
    if (k < P_OVERLAP) {
        float h = r * rng_range(g, 0.1f, 0.9f);
        L = r * rng_range(g, 0.2f, 2.0f);
        for (int i = 0; i < 3; i++) {
            S->c[i] = q[i] + side * N[i] * h;
            S->v[i] = -side * N[i] * L + tang[i] * L * 0.3f;
        }
        S->r = r;
        return;
    }
    int hit = k < P_OVERLAP + P_HIT;
    float kind = rng_unit(g);
    int beside = !hit && kind < 0.333f, apart = !hit && kind > 0.667f;
    if (beside) {
        /* beside edge ab, outside it by more than r, moving straight at the plane: the
           distance to the triangle never drops below the distance to that edge's line */
        float out[3], m = rng_range(g, 0.1f, 0.9f);
        cross3(e1, N, out); /* in-plane, away from c for a counter-clockwise face */
        float ol = len3(out);
        float off = r * rng_range(g, 1.2f, 3.0f);
        for (int i = 0; i < 3; i++)
            q[i] = T->a[i] + m * e1[i] + out[i] / ol * off;
    }
    /* the centre touches the plane at q after travelling L at time tc */
    float tc = hit ? rng_range(g, 0.05f, 0.95f) : rng_range(g, 1.1f, 3.0f);
    float slant = beside ? 0.0f : rng_range(g, 0.0f, 0.8f);
    float dl = sqrtf(1.0f + slant * slant);
    for (int i = 0; i < 3; i++)
        dir[i] = (-side * N[i] + tang[i] * slant) / dl;
    float gap = r * rng_range(g, 0.1f, 2.0f); /* start clearance beyond r along the normal */
    L = gap * dl;                               /* path length to the contact plane */
    for (int i = 0; i < 3; i++) {
        float pc = q[i] + side * N[i] * r; /* centre at contact */
        S->c[i] = pc - dir[i] * L;
        S->v[i] = dir[i] * (L / tc) * (apart ? -1.0f : 1.0f);
    }
    S->r = r;
}

static void tri_put(float *f[9], size_t i, const aos_tri *T)
{
    for (int k = 0; k < 3; k++) {
        f[k][i] = T->a[k];
        f[3 + k][i] = T->b[k];
        f[6 + k][i] = T->c[k];
    }
}

static void tri_alloc(bench_scene *sc, size_t ntris)
{
    sc->ntris = ntris;
    for (int k = 0; k < 9; k++)
        sc->tri[k] = xmalloc(ntris * sizeof(float));
    sc->aost = xmalloc(ntris * sizeof(aos_tri));
}

/* 64 triangles near every path: a bumpy 2 x 2 patch of 4 x 8 cells, two triangles each;
   spheres of radius 0.2 to 0.5 start over its middle and come down on it (hits), stop
   short or rise (misses), or start touching it. Every sphere's swept box covers much of the
   patch, so little can be rejected early. */
static void gen_set_near(bench_scene *sc, bench_rng *g)
{
    float h[5][9];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 9; j++)
            h[i][j] = rng_range(g, -0.1f, 0.1f);
    size_t t = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
            float x0 = 0.5f * (float)i, x1 = x0 + 0.5f, y0 = 0.25f * (float)j, y1 = y0 + 0.25f;
            aos_tri A = {{x0, y0, h[i][j]}, {x1, y0, h[i + 1][j]}, {x1, y1, h[i + 1][j + 1]}};
            aos_tri B = {{x0, y0, h[i][j]}, {x1, y1, h[i + 1][j + 1]}, {x0, y1, h[i][j + 1]}};
            sc->aost[t++] = A;
            sc->aost[t++] = B;
        }
    for (size_t i = 0; i < sc->pool; i++) {
        aos_sphere *S = &sc->aos[i];
        float r = rng_range(g, 0.2f, 0.5f), u = rng_unit(g), z0, vz;
        if (u < P_OVERLAP) {
            z0 = 0.1f + r * rng_range(g, 0.0f, 0.5f); /* within r of the top: touching */
            vz = -r;
        } else {
            z0 = 0.1f + r + rng_range(g, 0.05f, 1.0f); /* clear of the highest point */
            if (u < P_OVERLAP + P_HIT)
                vz = -(z0 + 0.1f) / rng_range(g, 0.2f, 0.9f); /* centre passes the lowest */
            else if (rng_unit(g) < 0.5f)
                vz = rng_range(g, 0.0f, 1.0f);
            else
                vz = -(z0 - 0.1f - r) / rng_range(g, 1.1f, 3.0f);
        }
        S->c[0] = rng_range(g, 0.6f, 1.4f), S->c[1] = rng_range(g, 0.6f, 1.4f), S->c[2] = z0;
        S->v[0] = rng_range(g, -0.3f, 0.3f), S->v[1] = rng_range(g, -0.3f, 0.3f), S->v[2] = vz;
        S->r = r;
    }
}

/* 64 triangles mostly far from each path: scattered over a 60 x 60 x 6 region; each sphere
   is aimed at (or beside, short of, away from) one of them at random, so a handful at most
   lie near its path and the rest are rejected by their bounding boxes. */
static void gen_set_far(bench_scene *sc, bench_rng *g)
{
    for (size_t t = 0; t < SET_TRIS; t++) {
        float at[3] = {rng_range(g, -30.0f, 30.0f), rng_range(g, -30.0f, 30.0f),
                       rng_range(g, -3.0f, 3.0f)};
        gen_triangle(g, at, &sc->aost[t]);
    }
    for (size_t i = 0; i < sc->pool; i++)
        gen_tri_sphere(g, &sc->aost[rng_u64(g) % SET_TRIS], 1.0f, &sc->aos[i]);
}

static void soa_alloc(float *f[7], size_t n)
{
    for (int k = 0; k < 7; k++)
        f[k] = xmalloc(n * sizeof(float));
}

static void soa_put(float *f[7], size_t i, const aos_sphere *s)
{
    f[0][i] = s->c[0], f[1][i] = s->c[1], f[2][i] = s->c[2];
    f[3][i] = s->v[0], f[4][i] = s->v[1], f[5][i] = s->v[2];
    f[6][i] = s->r;
}

void scene_generate(bench_scene *sc, bench_query q, size_t pool, uint64_t seed)
{
    memset(sc, 0, sizeof *sc);
    sc->q = q;
    sc->pool = pool;
    bench_rng g = {seed * 0x2545f4914f6cdd1dull + (uint64_t)q};
    switch (q) {
    case Q_SPHERES:
        soa_alloc(sc->a, pool);
        soa_alloc(sc->b, pool);
        sc->naos = 2 * pool;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        for (size_t i = 0; i < pool; i++) {
            gen_pair(&g, &sc->aos[2 * i], &sc->aos[2 * i + 1]);
            soa_put(sc->a, i, &sc->aos[2 * i]);
            soa_put(sc->b, i, &sc->aos[2 * i + 1]);
        }
        break;
    case Q_PAIRS: {
        /* Two bodies per pair, placed at random slots of the body array: the kernel gathers
           from random addresses, as a broadphase's pair list makes it. */
        sc->nbodies = 2 * pool;
        soa_alloc(sc->body, sc->nbodies);
        sc->ia = xmalloc(pool * sizeof(uint32_t));
        sc->ib = xmalloc(pool * sizeof(uint32_t));
        sc->naos = sc->nbodies;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        uint32_t *perm = xmalloc(sc->nbodies * sizeof(uint32_t));
        for (size_t i = 0; i < sc->nbodies; i++)
            perm[i] = (uint32_t)i;
        for (size_t i = sc->nbodies - 1; i > 0; i--) {
            size_t j = (size_t)(rng_u64(&g) % (i + 1));
            uint32_t tmp = perm[i];
            perm[i] = perm[j], perm[j] = tmp;
        }
        for (size_t k = 0; k < pool; k++) {
            aos_sphere A, B;
            gen_pair(&g, &A, &B);
            sc->ia[k] = perm[2 * k], sc->ib[k] = perm[2 * k + 1];
            sc->aos[sc->ia[k]] = A, sc->aos[sc->ib[k]] = B;
            soa_put(sc->body, sc->ia[k], &A);
            soa_put(sc->body, sc->ib[k], &B);
        }
        free(perm);
        break;
    }
    case Q_PLANE: {
        float n[3];
        random_dir(&g, n);
        sc->plane = (toi_plane){n[0], n[1], n[2], rng_range(&g, -10.0f, 10.0f)};
        soa_alloc(sc->a, pool);
        sc->naos = pool;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        for (size_t i = 0; i < pool; i++) {
            gen_plane_sphere(&g, &sc->plane, &sc->aos[i]);
            soa_put(sc->a, i, &sc->aos[i]);
        }
        break;
    }
    case Q_TRI_PAIRS:
    case Q_TRI_NEAR:
    case Q_TRI_FAR:
        soa_alloc(sc->a, pool);
        sc->naos = pool;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        tri_alloc(sc, q == Q_TRI_PAIRS ? pool : SET_TRIS);
        if (q == Q_TRI_PAIRS) {
            for (size_t i = 0; i < pool; i++) {
                float at[3] = {rng_range(&g, -WORLD, WORLD), rng_range(&g, -WORLD, WORLD),
                               rng_range(&g, -WORLD, WORLD)};
                gen_triangle(&g, at, &sc->aost[i]);
                gen_tri_sphere(&g, &sc->aost[i], 1.0f, &sc->aos[i]);
            }
        } else if (q == Q_TRI_NEAR) {
            gen_set_near(sc, &g);
        } else {
            gen_set_far(sc, &g);
        }
        for (size_t i = 0; i < pool; i++)
            soa_put(sc->a, i, &sc->aos[i]);
        for (size_t t = 0; t < sc->ntris; t++)
            tri_put(sc->tri, t, &sc->aost[t]);
        break;
    default:
        break;
    }
}

void scene_free(bench_scene *sc)
{
    for (int k = 0; k < 7; k++) {
        free(sc->a[k]);
        free(sc->b[k]);
        free(sc->body[k]);
    }
    for (int k = 0; k < 9; k++)
        free(sc->tri[k]);
    free(sc->ia);
    free(sc->ib);
    free(sc->aos);
    free(sc->aost);
    memset(sc, 0, sizeof *sc);
}

size_t scene_in_bytes(bench_query q)
{
    switch (q) {
    case Q_SPHERES: return 14 * sizeof(float);
    case Q_PAIRS: return 2 * sizeof(uint32_t) + 14 * sizeof(float); /* indices + 2 bodies */
    case Q_PLANE: return 7 * sizeof(float);
    case Q_TRI_PAIRS: return 16 * sizeof(float);         /* sphere + triangle */
    case Q_TRI_NEAR: case Q_TRI_FAR: return 7 * sizeof(float); /* the set stays in cache */
    default: return 0;
    }
}

size_t out_bytes(bench_query q, int full)
{
    if (!full)
        return sizeof(float); /* t */
    /* t, normal, point, depth; the feature for triangles; the index for sets */
    return 8 * sizeof(float) + (query_is_tri(q) ? 1 : 0) + (query_is_set(q) ? 4 : 0);
}
