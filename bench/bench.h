/* bench.h - the benchmark's scenes, implementations (toi backends and peers) and helpers */
#ifndef TOI_BENCH_H
#define TOI_BENCH_H

#include "clock.h"
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
/* The triangle queries are benchmarked whenever the library has them (toi.h defines their
   flag); until then they are listed but skipped. */
#ifdef TOI_CULL_BACKFACES
#define TOI_BENCH_TRIANGLES 1
#endif

typedef enum bench_query {
    Q_SPHERES,   /* toi_sweep_spheres: pair i is a[i] vs b[i] */
    Q_PAIRS,     /* toi_sweep_sphere_pairs: random indices into a body array */
    Q_PLANE,     /* toi_sweep_spheres_plane */
    Q_TRI_PAIRS, /* toi_sweep_spheres_triangles: sphere i vs triangle i */
    Q_TRI_NEAR,  /* toi_sweep_spheres_triangle_set: 64 triangles near every sphere's path */
    Q_TRI_FAR,   /* the same against 64 triangles mostly far from the paths */
    Q_COUNT
} bench_query;

#define SET_TRIS 64 /* triangles in a set query's set */

extern const char *const bench_query_name[Q_COUNT];
int query_available(bench_query q);
static inline int query_is_set(bench_query q)
{
    return q == Q_TRI_NEAR || q == Q_TRI_FAR;
}
static inline int query_is_tri(bench_query q)
{
    return q >= Q_TRI_PAIRS;
}

/* Array-of-structs copies for the textbook and Bullet peers (built once, not timed). */
typedef struct aos_sphere {
    float c[3], v[3], r;
} aos_sphere;
typedef struct aos_hit {
    float t, n[3], p[3], depth;
    uint32_t index;
} aos_hit;
typedef struct aos_tri {
    float a[3], b[3], c[3];
} aos_tri;

/* One query's scene: a pool of `pool` queries, cut into batches of the benchmarked size. A
   small batch is never repeated alone: every repetition visits all batches of the pool in a
   fresh random order, so neither the branch predictor nor the caches see one tiny batch. */
typedef struct bench_scene {
    bench_query q;
    size_t pool;
    /* Q_SPHERES: 7 arrays each for A and B (x y z vx vy vz r). Q_PLANE and the triangle
       queries: a[] only. Q_PAIRS: body[] holds 2 * pool bodies; ia/ib index them.
       Triangle queries: tri[] (ax ay az bx by bz cx cy cz) of ntris triangles: one per
       sphere (pairs) or SET_TRIS (sets). */
    float *a[7], *b[7];
    float *body[7];
    size_t nbodies;
    uint32_t *ia, *ib;
    toi_plane plane;
    float *tri[9];
    size_t ntris;
    /* AoS copies for the peers: pairs (2 per query) or single spheres (plane, triangles). */
    aos_sphere *aos;
    size_t naos;
    aos_tri *aost;
} bench_scene;

void scene_generate(bench_scene *sc, bench_query q, size_t pool, uint64_t seed);
void scene_free(bench_scene *sc);
size_t scene_in_bytes(bench_query q);        /* input bytes read per query */
size_t out_bytes(bench_query q, int full);    /* output bytes written per query */

/* Output buffers of `pool` queries, SoA for toi and AoS for the peers. "all" outputs are t,
   normal, point and depth, plus the feature for triangle queries and the index for sets. */
typedef struct bench_out {
    float *t, *nx, *ny, *nz, *px, *py, *pz, *depth;
    uint32_t *index;
    uint8_t *feature;
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
/* textbook_tri.c: sphere i vs triangle i (tri) or each sphere vs the set (set-near, set-far) */
size_t textbook_tri(const bench_scene *sc, size_t first, size_t n, int full,
                    const bench_out *o);

#ifdef TOI_BENCH_BULLET
/* bullet.cpp: btGjkConvexCast between two btSphereShapes, pair i = aos[2i] vs aos[2i+1]. */
#ifdef __cplusplus
extern "C" {
#endif
size_t bullet_spheres(const aos_sphere *pairs, size_t n, int full, aos_hit *out);
/* btContinuousConvexCollision of sphere i against triangle i (pairs), or against each of the
   ntris triangles keeping the earliest (sets) */
size_t bullet_tri_pairs(const aos_sphere *s, const aos_tri *tri, size_t n, int full,
                        aos_hit *out);
size_t bullet_tri_set(const aos_sphere *s, size_t n, const aos_tri *tri, size_t ntris,
                      int full, aos_hit *out);
#ifdef __cplusplus
}
#endif
#endif

/* ---- the memory-bandwidth floor: read every input array and write every output array once,
   as fast as plain streaming code can ---- */
typedef struct bench_stream {
    void *p;
    size_t bytes;
} bench_stream;
void floor_stream(const bench_stream *in, size_t nin, const bench_stream *out, size_t nout);

#endif /* TOI_BENCH_H */
