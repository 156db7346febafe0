/* impls.c - the implementations the benchmark times: each toi backend through the public API,
   and the peers (textbook AoS quadratic and sphere-triangle sweep; Bullet when built with it) */
#include "bench.h"

/* The toi queries through the public API, on whichever backend toi_set_backend chose. */
size_t run_toi(const bench_scene *sc, size_t first, size_t n, int full, const bench_out *o)
{
    toi_hits h = {.t = o->t + first};
    if (full) {
        h.nx = o->nx + first, h.ny = o->ny + first, h.nz = o->nz + first;
        h.px = o->px + first, h.py = o->py + first, h.pz = o->pz + first;
        h.depth = o->depth + first;
        if (query_is_tri(sc->q))
            h.feature = o->feature + first;
        if (query_is_set(sc->q))
            h.index = o->index + first;
    }
    ptrdiff_t hits = 0;
    switch (sc->q) {
    case Q_SPHERES: {
        toi_spheres a = {sc->a[0] + first, sc->a[1] + first, sc->a[2] + first,
                         sc->a[3] + first, sc->a[4] + first, sc->a[5] + first,
                         sc->a[6] + first};
        toi_spheres b = {sc->b[0] + first, sc->b[1] + first, sc->b[2] + first,
                         sc->b[3] + first, sc->b[4] + first, sc->b[5] + first,
                         sc->b[6] + first};
        hits = toi_sweep_spheres(n, &a, &b, 0, &h);
        break;
    }
    case Q_PAIRS: {
        toi_spheres bodies = {sc->body[0], sc->body[1], sc->body[2], sc->body[3],
                              sc->body[4], sc->body[5], sc->body[6]};
        hits = toi_sweep_sphere_pairs(n, sc->ia + first, sc->ib + first, sc->nbodies, &bodies,
                                      0, &h);
        break;
    }
    case Q_PLANE: {
        toi_spheres s = {sc->a[0] + first, sc->a[1] + first, sc->a[2] + first,
                         sc->a[3] + first, sc->a[4] + first, sc->a[5] + first,
                         sc->a[6] + first};
        hits = toi_sweep_spheres_plane(n, &s, &sc->plane, 0, &h);
        break;
    }
#ifdef TOI_BENCH_TRIANGLES
    case Q_TRI_PAIRS:
    case Q_TRI_NEAR:
    case Q_TRI_FAR: {
        toi_spheres s = {sc->a[0] + first, sc->a[1] + first, sc->a[2] + first,
                         sc->a[3] + first, sc->a[4] + first, sc->a[5] + first,
                         sc->a[6] + first};
        if (sc->q == Q_TRI_PAIRS) {
            size_t f = first;
            toi_triangles tri = {sc->tri[0] + f, sc->tri[1] + f, sc->tri[2] + f,
                                 sc->tri[3] + f, sc->tri[4] + f, sc->tri[5] + f,
                                 sc->tri[6] + f, sc->tri[7] + f, sc->tri[8] + f};
            hits = toi_sweep_spheres_triangles(n, &s, &tri, 0, &h);
        } else {
            toi_triangles tri = {sc->tri[0], sc->tri[1], sc->tri[2], sc->tri[3], sc->tri[4],
                                 sc->tri[5], sc->tri[6], sc->tri[7], sc->tri[8]};
            hits = toi_sweep_spheres_triangle_set(n, &s, sc->ntris, &tri, 0, &h);
        }
        break;
    }
#endif
    default:
        break;
    }
    return hits < 0 ? 0 : (size_t)hits;
}

#ifdef TOI_BENCH_BULLET
static size_t bullet_spheres_run(const bench_scene *sc, size_t first, size_t n, int full,
                                 const bench_out *o)
{
    return bullet_spheres(sc->aos + 2 * first, n, full, o->aos + first);
}

#ifdef TOI_BENCH_TRIANGLES
static size_t bullet_tri_run(const bench_scene *sc, size_t first, size_t n, int full,
                             const bench_out *o)
{
    if (sc->q == Q_TRI_PAIRS)
        return bullet_tri_pairs(sc->aos + first, sc->aost + first, n, full, o->aos + first);
    return bullet_tri_set(sc->aos + first, n, sc->aost, sc->ntris, full, o->aos + first);
}
#define BULLET_TRI bullet_tri_run
#endif
#endif
#ifndef BULLET_TRI
#define BULLET_TRI NULL
#endif

/* Backends first (scalar is the reference every speedup is measured against), then peers. */
const bench_impl bench_impls[] = {
    {"scalar", TOI_BACKEND_SCALAR, {run_toi, run_toi, run_toi, run_toi, run_toi, run_toi}, 0},
    {"sse", TOI_BACKEND_SSE, {run_toi, run_toi, run_toi, run_toi, run_toi, run_toi}, 0},
    {"avx2", TOI_BACKEND_AVX2, {run_toi, run_toi, run_toi, run_toi, run_toi, run_toi}, 0},
    {"avx512", TOI_BACKEND_AVX512, {run_toi, run_toi, run_toi, run_toi, run_toi, run_toi}, 0},
    {"neon", TOI_BACKEND_NEON, {run_toi, run_toi, run_toi, run_toi, run_toi, run_toi}, 0},
    {"textbook", TOI_BACKEND_AUTO,
     {textbook_spheres, textbook_pairs, textbook_plane, textbook_tri, textbook_tri,
      textbook_tri}, 0},
#ifdef TOI_BENCH_BULLET
    /* ~0.5 us a pair: timed up to L3-sized batches only, to keep the run to minutes */
    {"bullet", TOI_BACKEND_AUTO,
     {bullet_spheres_run, NULL, NULL, BULLET_TRI, BULLET_TRI, BULLET_TRI}, 65536},
#endif
};
const size_t bench_nimpls = sizeof bench_impls / sizeof bench_impls[0];
