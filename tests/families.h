/* families.h - every query as a table row: its input arrays, its per-call values and how to
   call it, so the guard-page, fuzz, magnitude and thread harnesses cover each query alike.
   Adding a query = adding one row to t_families (families.c). No dependency on the test
   runner: the fuzz targets link this file too. */
#ifndef TOI_FAMILIES_H
#define TOI_FAMILIES_H

#include "internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(TOI_TEST_SIMDE_NEON)
extern const toi_kernels toi_kernels_neon; /* src/neon built through SIMDe (tests only) */
#endif
/* src/avx512 built through SIMDe (tests only): linked into toi_tests_avx512simde, absent (a
   null address) from the other test programs */
extern const toi_kernels toi_kernels_avx512simde __attribute__((weak));

/* Whether TOI_TEST_IMPLS (a comma-separated list of implementation names) selects name; all
   are selected when it is unset. The scalar reference always runs
   (families.c). */
int t_impl_wanted(const char *name);

#define T_MAXARR 32 /* float arrays per query or per set member (rotating boxes: 32) */
#define T_MAXPARAM 4

/* Inputs of one call. q[] has one element per query; idx[k] has one per query and indexes
   set idx_set[k]; set[s][] has nset[s] elements; param[] are per-call values (a plane). */
typedef struct t_args {
    const float *q[T_MAXARR];
    const uint32_t *idx[2];
    size_t nset[2];
    const float *set[2][T_MAXARR];
    float param[T_MAXPARAM];
} t_args;

/* What each float array holds, so harnesses can draw meaningful values for it:
   'p' a coordinate, 'v' a displacement, 'r' a radius, 'n' a unit-normal component (three
   'n' arrays in a row are one unit vector per element), 'd' a plane offset or a depth,
   'q' a quaternion component (four 'q' arrays in a row are one unit quaternion per element),
   'h' a box's half extent (>= 0), 'w' a component of a box's rotation over the step (rad),
   'o' a coordinate drawn as a small offset from the same component of the nearest 'p'
   array 3, 6, ... before it (a triangle's vertices b and c near its vertex a), 't' a hit
   time (in [0, 1] or TOI_NO_HIT), 'e' a coefficient in [0, 1] (restitution, friction). */
typedef struct t_family {
    const char *name;   /* also the fuzz target's name: fuzz_<name> */
    const char *qkind;  /* one letter per per-query float array */
    int nidx;           /* index arrays (0..2) */
    int idx_set[2];     /* the set each index array points into */
    int nsets;          /* sets (0..2) */
    const char *skind[2];
    const char *pkind;  /* per-call values */
    int normal_param;   /* the normal is param[normal_param..+2] as given; -1: computed */
    int writes_index;   /* out->index: a member of set index_set, or UINT32_MAX */
    int index_set;
    int writes_feature; /* out->feature: below feature_limit */
    int writes_exit;    /* out->t_exit: >= t for a hit, TOI_NO_HIT for a miss; the others
                           leave it untouched */
    unsigned feature_limit;
    /* Whether the per-call values meet the contract's preconditions (a plane's normal is a
       unit vector); NULL: always. When not, results must still be bit-identical on every
       backend and well-formed, but may hold NaN or Inf. */
    int (*precondition)(const t_args *a);
    /* Flags that mean something to this query: harnesses try every subset of them. */
    unsigned flags;
    /* Whether the per-call values make the call invalid (TOI_EINVAL, nothing written) though
       every pointer is given; NULL: never. */
    int (*invalid)(const t_args *a);
    /* Rows that update arrays in place (toi_respond): the first `inout` per-query arrays are
       read and rewritten by the call, which has no toi_hits (call gets out = NULL and ignores
       flags); its results are those arrays and the count. optional[g]: a group of per-query
       arrays (bit k = q[k]) that may all be NULL together. */
    int inout;
    uint32_t optional[2];
    /* A row that computes in world units, with no rescale of its geometry (the plane queries:
       n.p - d has no squares; the response): among the denormals its products round on
       their absolute grid, so it commutes with scaling only while its inputs are normal. */
    int world_units;
    /* A row whose results must be bit for bit those of another row on the same arguments
       (the mesh query: the set query's); NULL: none. */
    const char *equals;
    /* k = NULL: the public function, on whatever backend is active. The const of a->q[k],
       k < inout, is cast away: those arrays must be writable. */
    ptrdiff_t (*call)(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                      const toi_hits *out);
} t_family;

extern const t_family t_families[];
extern const int t_nfamilies;
const t_family *t_family_named(const char *name);
/* A seed from the family's name (FNV-1a): draws that do not depend on its row in the table, so
   adding a family changes no other family's inputs. */
uint64_t t_family_seed(const t_family *f);

static inline int t_nq(const t_family *f) { return (int)__builtin_strlen(f->qkind); }
static inline int t_nset_arrays(const t_family *f, int s)
{
    return f->skind[s] ? (int)__builtin_strlen(f->skind[s]) : 0;
}
static inline int t_nparam(const t_family *f)
{
    return f->pkind ? (int)__builtin_strlen(f->pkind) : 0;
}

/* A value of the given kind from the generator state *s (normals: the components of one
   fixed unit vector, in turn through *ncomp), for batches whose queries partly hit. */
float t_draw(uint64_t *s, char kind, int *ncomp);

/* Draws the arrays of the given kinds (n elements each, in order array by array, element by
   element), then derives the 'o' and 'n' arrays as described above. */
void t_fill(uint64_t *s, const char *kinds, float *const *arr, size_t n);

/* Calls a row on copies of its in-place arrays: io[k] (n floats each, k < f->inout) receive
   a->q[k] (when not NULL) and are then updated; a->q is left alone. For other rows the same
   as f->call. */
ptrdiff_t t_call_io(const t_family *f, const toi_kernels *k, size_t n, const t_args *a,
                    unsigned flags, const toi_hits *out, float *const *io);

/* A batch of n queries (and nset members per set) in malloc'ed arrays, drawn by kind. */
typedef struct t_batch {
    t_args a;
    void *mem[T_MAXARR + 2 + 2 * T_MAXARR];
    int nmem;
} t_batch;
void t_batch_make(t_batch *b, const t_family *f, size_t n, size_t nset, uint64_t seed);
void t_batch_free(t_batch *b);

/* Every kernel table this build can run: the available backends, best last, then NEON
   through SIMDe on x86 test builds. [0] is the scalar reference. */
int t_kernel_tables(const toi_kernels **k, int max);

#endif /* TOI_FAMILIES_H */
