/* bench.h - the benchmark's scenes, implementations (toi backends and peers) and helpers */
#ifndef TOI_BENCH_H
#define TOI_BENCH_H

#include "toi.h"

#include <stddef.h>
#include <stdint.h>

/* ---- random numbers: splitmix64, so every architecture generates the same scenes ---- */
typedef struct bench_rng {
    uint64_t s;
} bench_rng;

static inline uint64_t rng_u64(bench_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline float rng_unit(bench_rng *r) /* [0, 1) */
{
    return (float)(rng_u64(r) >> 40) * (1.0f / 16777216.0f);
}
static inline float rng_range(bench_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * rng_unit(r);
}

/* ---- queries ---- */
typedef enum bench_query {
    Q_SPHERES,   /* toi_sweep_spheres: pair i is a[i] vs b[i] */
    Q_PAIRS,     /* toi_sweep_sphere_pairs: random indices into a body array */
    Q_PLANE,     /* toi_sweep_spheres_plane */
    Q_COUNT
} bench_query;

extern const char *const bench_query_name[Q_COUNT];

/* Array-of-structs copies for the textbook and Bullet peers (built once, not timed). */
typedef struct aos_sphere {
    float c[3], v[3], r;
} aos_sphere;
typedef struct aos_hit {
    float t, n[3], p[3], depth;
} aos_hit;

/* One query's scene: a pool of `pool` queries, cut into batches of the benchmarked size. A
   small batch is never repeated alone: every repetition visits all batches of the pool in a
   fresh random order, so neither the branch predictor nor the caches see one tiny batch. */
typedef struct bench_scene {
    bench_query q;
    size_t pool;
    /* Q_SPHERES: 7 arrays each for A and B (x y z vx vy vz r). Q_PLANE: s[] only.
       Q_PAIRS: body[] holds 2 * pool bodies; ia/ib index them. */
    float *a[7], *b[7];
    float *body[7];
    size_t nbodies;
    uint32_t *ia, *ib;
    toi_plane plane;
    /* AoS copies for the peers: pairs (2 per query) or single spheres (plane). */
    aos_sphere *aos;
    size_t naos;
} bench_scene;

void scene_generate(bench_scene *sc, bench_query q, size_t pool, uint64_t seed);
void scene_free(bench_scene *sc);
size_t scene_in_bytes(bench_query q);   /* input bytes read per query */
size_t out_bytes(int full);              /* output bytes written per query */

/* Output buffers of `pool` queries, SoA for toi and AoS for the peers. */
typedef struct bench_out {
    float *t, *nx, *ny, *nz, *px, *py, *pz, *depth;
    aos_hit *aos;
} bench_out;

/* ---- implementations ---- */
typedef struct bench_impl {
    const char *name;
    toi_backend backend; /* a toi backend, or AUTO for a peer */
    /* Runs queries [first, first + n) of the scene into the outputs at the same offset;
       returns the number of hits. NULL when this implementation lacks the query. */
    size_t (*run[Q_COUNT])(const bench_scene *sc, size_t first, size_t n, int full,
                           const bench_out *o);
    /* Largest batch this implementation is timed at by default (slow peers). */
    size_t max_n;
} bench_impl;

extern const bench_impl bench_impls[];
extern const size_t bench_nimpls;

size_t run_toi(const bench_scene *sc, size_t first, size_t n, int full, const bench_out *o);
size_t textbook_spheres(const bench_scene *sc, size_t first, size_t n, int full,
                        const bench_out *o);
size_t textbook_pairs(const bench_scene *sc, size_t first, size_t n, int full,
                      const bench_out *o);
size_t textbook_plane(const bench_scene *sc, size_t first, size_t n, int full,
                      const bench_out *o);

#ifdef TOI_BENCH_BULLET
/* bullet.cpp: btGjkConvexCast between two btSphereShapes, pair i = aos[2i] vs aos[2i+1]. */
#ifdef __cplusplus
extern "C" {
#endif
size_t bullet_spheres(const aos_sphere *pairs, size_t n, int full, aos_hit *out);
#ifdef __cplusplus
}
#endif
#endif

/* ---- the memory-bandwidth floor: read nin arrays of n 32-bit words and write nout arrays of
   n words, all in lockstep, as fast as plain streaming code can ---- */
void floor_stream(size_t n, const uint32_t *const *in, size_t nin, uint32_t *const *out,
                  size_t nout);

#endif /* TOI_BENCH_H */
