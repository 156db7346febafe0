/* test.h - the test harness: cases and checks, the implementations under test, a portable
   random generator, and output buffers. */
#ifndef TOI_TEST_H
#define TOI_TEST_H

#include "internal.h"
#include "toi.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- cases and checks ---- */
void t_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) ((cond) ? (void)0 : t_fail(__FILE__, __LINE__, __VA_ARGS__))
void t_run(const char *name, void (*fn)(const void *ctx), const void *ctx);
/* t_run(fn) once per implementation under test, named "<what>/<implementation>". */
void t_run_impls(const char *what, void (*fn)(const void *impl));
extern double t_scale; /* multiplies random query counts (TOI_TEST_SCALE, default 1) */
size_t t_count(size_t n); /* n * t_scale, at least 1 */
/* The accuracy groups' samples: t_count(n) times TOI_TEST_ACCURACY_SCALE when set (the
   long-double oracle is software quad precision on aarch64), at least 1 */
size_t t_acc_count(size_t n);

/* ---- implementations: every available backend through the public API (forced with
   toi_set_backend, and checked to be the one that ran), plus NEON through SIMDe on x86 ---- */
typedef struct t_impl {
    const char *name;
    const toi_kernels *k;
    int via_api;
} t_impl;
extern t_impl t_impls[8];
#define T_MAXW 16 /* the widest backend's lanes (avx512): batch-size sweeps go to 3 T_MAXW + 1 */
extern int t_nimpls; /* t_impls[0] is the scalar reference */
void t_init_impls(void);

ptrdiff_t t_spheres(const t_impl *im, size_t n, const toi_spheres *a, const toi_spheres *b,
                    unsigned flags, const toi_hits *out);
ptrdiff_t t_pairs(const t_impl *im, size_t n, const uint32_t *ia, const uint32_t *ib,
                  size_t nb, const toi_spheres *s, unsigned flags, const toi_hits *out);
ptrdiff_t t_plane(const t_impl *im, size_t n, const toi_spheres *s, const toi_plane *p,
                  unsigned flags, const toi_hits *out);
ptrdiff_t t_respond(const t_impl *im, size_t n, const toi_motion *m, const toi_hits *hits,
                    float restitution, float friction);

ptrdiff_t t_tris(const t_impl *im, size_t n, const toi_spheres *s, const toi_triangles *tri,
                 unsigned flags, const toi_hits *out);
ptrdiff_t t_tri_pairs(const t_impl *im, size_t n, const uint32_t *is, const uint32_t *it,
                      size_t ns, const toi_spheres *s, size_t nt, const toi_triangles *tri,
                      unsigned flags, const toi_hits *out);
ptrdiff_t t_tri_set(const t_impl *im, size_t n, const toi_spheres *s, size_t nt,
                    const toi_triangles *tri, unsigned flags, const toi_hits *out);
ptrdiff_t t_mesh(const t_impl *im, size_t n, const toi_spheres *s, const toi_mesh *m,
                 unsigned flags, const toi_hits *out, toi_cost *cost);

/* ---- deterministic random numbers: integer arithmetic and exact float operations only, so
   every architecture draws the same inputs (no libm) ---- */
typedef struct rng {
    uint64_t s;
} rng;
/* TOI_TEST_SEED (main.c): 0 by default, the suite's fixed inputs; another value draws other
   inputs in every seeded group except the golden hashes and the fuzz corpus. */
extern uint64_t t_seed;
static inline rng t_rng(uint64_t seed) { return (rng){seed ^ t_seed}; }
static inline uint64_t rng_u64(rng *r) /* splitmix64 */
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t rng_below(rng *r, uint32_t n) { return (uint32_t)(rng_u64(r) % n); }
static inline float rng_unit(rng *r) { return (float)(rng_u64(r) >> 40) * 0x1p-24f; } /* [0,1) */
static inline float rng_range(rng *r, float lo, float hi) { return lo + (hi - lo) * rng_unit(r); }
static inline float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- sphere batches and hit buffers (allocated with a 1-float offset: unaligned) ---- */
typedef struct t_sph {
    float *f[7]; /* x y z vx vy vz r */
    toi_spheres s;
} t_sph;
void t_spheres_alloc(t_sph *b, size_t n);
/* k streams of up to 1000 floats each in one block, stream j at 4096 * j bytes plus off floats
   (off < 24): every stream at one offset modulo 4 KiB, so that their elements crowd one L1
   set (the kernels then read them through a stage); freed with free(). */
float *t_crowded(int k, size_t off, float **streams);
/* Contiguous pairs on k <= 32 such streams (at a random offset), which the box and capsule
   pair kernels read through a stage: im's results bit for bit the scalar reference's on the
   same arrays, for 40,000 pairs (t_count) in batches of 1 to 600 (whole stages of 64 pairs a
   third of the time, every tail), both flags, every output. gen draws one pair's k values
   (stream j's in v[j]); call runs the query on streams f. */
typedef void (*t_crowd_gen)(rng *r, float *v);
typedef ptrdiff_t (*t_crowd_call)(const t_impl *im, size_t n, float *const *f, unsigned flags,
                                  const toi_hits *out);
void t_crowded_pairs(const t_impl *im, int k, uint64_t seed, t_crowd_gen gen,
                     t_crowd_call call);
void t_spheres_free(t_sph *b);

/* triangle batches (unaligned like the spheres) */
typedef struct t_tri {
    float *f[9]; /* ax ay az bx by bz cx cy cz */
    toi_triangles t;
} t_tri;
void t_tri_alloc(t_tri *b, size_t n);
void t_tri_free(t_tri *b);

#define T_NOUT 8 /* t nx ny nz px py pz depth */
typedef struct t_hits {
    float *f[T_NOUT];
    uint32_t *index;
    uint8_t *feature;
    float *t_exit; /* written by the sphere and plane queries only */
    toi_hits h;
    size_t n;
} t_hits;
void t_hits_alloc(t_hits *h, size_t n); /* all outputs, filled with a sentinel pattern */
void t_hits_free(t_hits *h);
void t_hits_fill(t_hits *h, uint8_t byte);
/* First output whose bits differ at some index, or -1; *at gets that index. Outputs are
   numbered 0 .. T_NOUT - 1 as f[], then T_NOUT index, T_NOUT + 1 feature, T_NOUT + 2 t_exit
   (t_out_name names them all). */
#define T_OUT_EXIT (T_NOUT + 2)
const char *t_out_name(int k);
int t_hits_diff(const t_hits *a, const t_hits *b, size_t n, size_t *at);
extern const char *const t_out_names[T_NOUT];

/* Groups. */
void group_contract(void);
void group_differential(void);
void group_runs(void); /* test_runs.c */
void group_accuracy(void);
void group_dispatch(void);
void group_golden(void);
void group_respond(void);
void group_particles(void);
void group_tri_contract(void);
void group_tri_differential(void);
void group_tri_accuracy(void);
void group_guard(void);
void group_threads_first(void); /* before any other toi call */
void group_threads(void);
void group_fuzz_replay(void);
void group_magnitude(void);
void group_mesh_contract(void);
void group_mesh_differential(void);
void group_mesh_accuracy(void);
void group_mesh_threads(void);
void group_mesh_golden(void);
void group_box_contract(void);
void group_box_differential(void);
void group_box_accuracy(void);
void group_box_golden(void);
void group_box_spin_contract(void);
void group_box_spin_differential(void);
void group_box_spin_accuracy(void);
void group_box_spin_golden(void);

/* Capsules (test_capsules.c). */
ptrdiff_t t_capsules_spheres(const t_impl *im, size_t n, const toi_capsules *c,
                             const toi_spheres *s, unsigned flags, const toi_hits *out);
ptrdiff_t t_capsules_plane(const t_impl *im, size_t n, const toi_capsules *c,
                           const toi_plane *p, unsigned flags, const toi_hits *out);
ptrdiff_t t_capsules(const t_impl *im, size_t n, const toi_capsules *a, const toi_capsules *b,
                     unsigned flags, const toi_hits *out);
ptrdiff_t t_capsule_pairs(const t_impl *im, size_t n, const uint32_t *ia, const uint32_t *ib,
                          size_t nbodies, const toi_capsules *bodies, unsigned flags,
                          const toi_hits *out);
ptrdiff_t t_capsules_tris(const t_impl *im, size_t n, const toi_capsules *c,
                          const toi_triangles *tri, unsigned flags, const toi_hits *out);
ptrdiff_t t_capsules_tri_set(const t_impl *im, size_t n, const toi_capsules *c, size_t ntris,
                             const toi_triangles *tri, unsigned flags, const toi_hits *out);
ptrdiff_t t_capsules_mesh(const t_impl *im, size_t n, const toi_capsules *c, const toi_mesh *m,
                          unsigned flags, const toi_hits *out, toi_cost *cost);
void group_capsule_contract(void);
void group_capsule_differential(void);
void group_capsule_accuracy(void);
void group_capsule_golden(void);
void group_capsule_tri_contract(void);
void group_capsule_tri_differential(void);
void group_capsule_tri_accuracy(void);
void group_capsule_tri_golden(void);

#endif /* TOI_TEST_H */
