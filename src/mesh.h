/* mesh.h - the triangle mesh's layout (a bounding-volume hierarchy of 8-wide nodes with
   quantized child boxes over leaves of up to 8 triangles) and what every backend's
   traversal shares: the node test's definition, the child ordering and the stack */
#ifndef TOI_MESH_H
#define TOI_MESH_H

#include "internal.h"

/* Children per node and triangles per leaf. Fixed for every backend (a mesh is built once
   and queried by whichever backend is active): 4-lane backends take a node or a leaf in two
   vectors, 16-lane ones in half of one. */
#define TOI_MESH_W 8
/* Floats after the last leaf, so a leaf's rows loaded as whole vectors (up to 16 lanes)
   never read past the allocation; the lanes past the leaf are masked. */
#define TOI_MESH_PAD 16
/* count[] of a child that is an internal node. */
#define TOI_MESH_INNER 255
/* Wide levels below which the builder still splits by the surface-area heuristic; deeper
   subtrees split at the median, the child of most triangles first (mesh.c, split_priority),
   so a tree of fewer than 2^32 triangles is at most this + 10 levels deep and the traversal
   stack below is bounded. */
#define TOI_MESH_SAH_DEPTH 40
#define TOI_MESH_MAX_DEPTH (TOI_MESH_SAH_DEPTH + 12)
/* Pending children during a traversal: each level visited leaves at most W - 1 behind. */
#define TOI_MESH_STACK ((TOI_MESH_W - 1) * TOI_MESH_MAX_DEPTH + TOI_MESH_W)

/* One node (128 bytes, two cache lines). Child k's box along axis a is
   [org[a] + q[a][k] * scl[a], org[a] + q[3 + a][k] * scl[a]] (q converted to float, every
   operation in float as written): the quantization is rounded outward when built, checked
   with this very expression, so the box holds the child's exact one. A missing child, or
   one whose triangles are all non-finite, has q[a][k] = 1 > q[3 + a][k] = 0: empty. */
typedef struct toi_mesh_node {
    float org[3], scl[3];
    uint8_t q[6][TOI_MESH_W];  /* low x, y, z then high x, y, z, per child */
    uint32_t ref[TOI_MESH_W];  /* internal child: its node index; leaf: its first slot */
    uint8_t count[TOI_MESH_W]; /* 0 none; 1..8 a leaf of that many; TOI_MESH_INNER a node */
    uint8_t nchild;            /* children present, first (the node's BV tests, cost nv) */
    uint8_t pad_[15];
} toi_mesh_node;

/* Triangles are kept in leaf order ("slots"). A leaf of n triangles from slot s is one
   contiguous block of structure of arrays, tri + 10 s: nine rows of n floats (ax of its
   triangles, then ay, ..., cz), the layout the set kernels read, so a leaf is one kernel
   step, then a row of their indices in the arrays given to build (uint32_t bits). A row
   read as a whole vector runs into the next one, in lanes the kernel masks. */
struct toi_mesh {
    size_t ntris;
    size_t nnodes;
    toi_mesh_node *nodes; /* nodes[0] is the root; a child's index exceeds its parent's */
    float *tri;           /* 10 ntris + TOI_MESH_PAD words */
    size_t bytes;         /* everything allocated for the mesh */
};

/* Row k (0..8) of the leaf of n triangles from slot s. */
static inline float *toi_mesh_row(const toi_mesh *m, uint32_t s, uint32_t n, int k)
{
    return m->tri + 10 * (size_t)s + (size_t)k * n;
}

/* The index (in the arrays given to build) of triangle j of that leaf. */
static inline uint32_t toi_mesh_index(const toi_mesh *m, uint32_t s, uint32_t n, uint32_t j)
{
    uint32_t i;
    __builtin_memcpy(&i, toi_mesh_row(m, s, n, 9) + j, sizeof i);
    return i;
}

/* Meshes of at least this many bytes (toi_mesh_bytes) are walked with prefetches
   (toi_mesh_prefetch_hits): at 10^6 triangles (45 MB) they took 0.85x to 0.96x the time,
   at 10^5 (4.5 MB) they made no difference, and at 10^4 (0.45 MB, in cache) they cost 5 to
   8 % (avx2 and avx512, shared Intel Xeon; docs/meshes.md). */
#define TOI_MESH_PREFETCH_BYTES ((size_t)8 << 20)

/* Start fetching the children of nd that passed its test (bit k of hit: child k), the first
   two lines of each (a whole node; a leaf's first 128 bytes, its rows of up to 3 triangles):
   the walk goes on with them after the other walks' steps. always_inline: GCC judges a
   function of prefetches alone free of side effects and drops every call of it (it did, for
   every build, until this was found). */
static inline __attribute__((always_inline)) void
toi_mesh_prefetch_hits(const toi_mesh *m, const toi_mesh_node *nd, unsigned hit)
{
    for (; hit; hit &= hit - 1) {
        const int k = __builtin_ctz(hit);
        const char *c = nd->count[k] == TOI_MESH_INNER
                            ? (const char *)&m->nodes[nd->ref[k]]
                            : (const char *)toi_mesh_row(m, nd->ref[k], nd->count[k], 0);
        __builtin_prefetch(c);
        __builtin_prefetch(c + 64);
    }
}

/* A query's part of the node test, computed once per sphere. The node test
   (src/scalar/mesh.c, and the same operations per lane in src/simd/mesh.h) is the path
   p(t) = p0 + t v, t in [0, tb], against each child box grown by g = r + TOI_BOX_MARGIN Sn,
   where Sn = 3 (e_x + e_y + e_z) + |v|_1 + r and e_a is the larger of |lo_a - p0_a| and
   |hi_a - p0_a|: Sn bounds the set kernels' size of every triangle in the box (three
   vertices no farther than e_a along each axis), so the grown box holds the
   r + margin neighbourhood of every triangle in it, and a child that fails holds no
   triangle the set query could find a hit with at a time <= tb (internal.h,
   TOI_BOX_MARGIN; the slab times' rounding, a few FLT_EPSILON of the time, is far inside
   that margin). The slab times use the reciprocal: near and far planes chosen by the sign
   of 1 / v_a (-0 counts as negative), so a NaN arises only as 0 * Inf, for a centre exactly
   on a plane of a box it does not move across - and a NaN never tightens the interval
   (compare-and-select). */
typedef struct toi_mesh_ray {
    float px, py, pz;     /* start centre */
    float ix, iy, iz;     /* 1 / v */
    float base;           /* |v|_1 + r (a capsule: + |e|_1) */
    float r;              /* r, plus the motions too small for a reciprocal (below) */
    float elo[3], ehi[3]; /* a capsule's box stretch, below; 0 for a sphere */
    int negx, negy, negz; /* 1 / v_a < 0 */
} toi_mesh_ray;

/* |v_a| when its reciprocal overflows (0 < |v_a| < about 2^-128), else 0. */
static inline float toi_mesh_tiny(float va, float ia)
{
    return __builtin_isinf(ia) && va != 0.0f ? __builtin_fabsf(va) : 0.0f;
}

/* A motion along axis a too small for its reciprocal (1 / v_a overflows to +-inf) makes the
   slab test take the path as standing still along a, as for v_a = 0; the box is grown by
   |v_a| more instead, through r: the path strays from its start by at most that along a.
   (r + pad rounded to nearest falls short of the exact sum by at most 2^-24 (r + pad), far
   inside TOI_BOX_MARGIN Sn, as Sn >= |v|_1 + r.) Without it a sphere moving by a few 2^-130
   was tested against the boxes at its start only, and missed what the set query hit. */
static inline toi_mesh_ray toi_mesh_ray_make(float px, float py, float pz, float vx, float vy,
                                             float vz, float r)
{
    toi_mesh_ray q;
    q.px = px, q.py = py, q.pz = pz;
    q.ix = 1.0f / vx, q.iy = 1.0f / vy, q.iz = 1.0f / vz;
    q.base = ((__builtin_fabsf(vx) + __builtin_fabsf(vy)) + __builtin_fabsf(vz)) + r;
    q.r = r + ((toi_mesh_tiny(vx, q.ix) + toi_mesh_tiny(vy, q.iy)) + toi_mesh_tiny(vz, q.iz));
    for (int a = 0; a < 3; a++)
        q.elo[a] = q.ehi[a] = 0.0f;
    q.negx = q.ix < 0.0f, q.negy = q.iy < 0.0f, q.negz = q.iz < 0.0f;
    return q;
}

/* A capsule (segment p0 -> p0 + e, radius r, moving by v): the path of p0 against each child
   box stretched by -e first - along axis a, [lo_a - max(e_a, 0), hi_a - min(e_a, 0)] holds
   every p0 whose segment reaches into [lo_a, hi_a] - then grown as for a sphere, with |e|_1
   added to Sn (the capsule kernel's size is the sphere's plus |e|_1). The stretch comes
   after e_a is taken from the unstretched box, so Sn still bounds the distance from p0 to
   the box's triangles. With e = 0 every value is the sphere's, bit for bit. */
static inline toi_mesh_ray toi_mesh_ray_capsule(const float p0[3], const float e[3],
                                                const float v[3], float r)
{
    toi_mesh_ray q = toi_mesh_ray_make(p0[0], p0[1], p0[2], v[0], v[1], v[2], r);
    q.base = q.base + ((__builtin_fabsf(e[0]) + __builtin_fabsf(e[1])) + __builtin_fabsf(e[2]));
    for (int a = 0; a < 3; a++) {
        q.elo[a] = e[a] > 0.0f ? e[a] : 0.0f;
        q.ehi[a] = e[a] < 0.0f ? e[a] : 0.0f;
    }
    return q;
}

/* A sphere the mesh query computes at all: finite centre, displacement and radius, r >= 0
   (any other misses every triangle of a set: its relative size is not finite). */
static inline int toi_mesh_sphere_ok(float px, float py, float pz, float vx, float vy,
                                     float vz, float r)
{
    float z = ((((px - px) + (py - py)) + ((pz - pz) + (vx - vx))) + ((vy - vy) + (vz - vz))) +
              (r - r);
    return z == 0.0f && r >= 0.0f;
}

/* A capsule the mesh query computes at all: p0, v and r as a sphere's, and a finite p1. */
static inline int toi_mesh_capsule_ok(const float p0[3], const float p1[3], const float v[3],
                                      float r)
{
    float z = ((p1[0] - p1[0]) + (p1[1] - p1[1])) + (p1[2] - p1[2]);
    return z == 0.0f && toi_mesh_sphere_ok(p0[0], p0[1], p0[2], v[0], v[1], v[2], r);
}

/* The traversal's best hit so far: its time and triangle index, and where the triangle
   lies (leaf slot ref of cnt triangles, lane j) so the winner is recomputed from the mesh's
   copy. */
typedef struct toi_mesh_best {
    float t;
    uint32_t win, ref, cnt, j;
} toi_mesh_best;

/* Offer triangle j of leaf (ref, cnt), hit at t (a miss: +inf), to *b: the earliest hit
   wins, the lowest index on equal times (the set query's winner, whatever the order of the
   visit). */
static inline void toi_mesh_offer(const toi_mesh *m, uint32_t ref, uint32_t cnt, uint32_t j,
                                  float t, toi_mesh_best *b)
{
    if (!(t <= 1.0f))
        return;
    uint32_t idx = toi_mesh_index(m, ref, cnt, j);
    if (t < b->t || (t == b->t && idx < b->win)) {
        b->t = t;
        b->win = idx;
        b->ref = ref, b->cnt = cnt, b->j = j;
    }
}

/* One pending child: its node or first slot, its count, and the time its box is entered. */
typedef struct toi_mesh_entry {
    uint32_t ref;
    uint32_t count;
    float t;
} toi_mesh_entry;

/* The traversal's next step after a node: the children of nd that passed (bit k of `hit`),
   entered at t_in[k], are visited in order - the first entered first, the lower child on
   equal times: the first now (*cur), the others pushed so the next entered is popped next.
   The order decides only which work is done (the result is the minimum over every triangle
   that can matter, whatever the order), but it is the same on every backend, so the cost
   counters are too. Returns 0 when no child passed (then *cur comes from the stack). */
static inline int toi_mesh_descend(toi_mesh_entry *stack, size_t *sp, const toi_mesh_node *nd,
                                   unsigned hit, const float t_in[TOI_MESH_W],
                                   toi_mesh_entry *cur)
{
    if (!hit)
        return 0;
    if (!(hit & (hit - 1))) { /* one child: no order to find */
        int k = __builtin_ctz(hit);
        *cur = (toi_mesh_entry){nd->ref[k], nd->count[k], t_in[k]};
        return 1;
    }
    /* sort the children by (time, child): times are >= 0, so their bits order like them */
    uint64_t key[TOI_MESH_W];
    int ne = 0;
    for (; hit; hit &= hit - 1) {
        int k = __builtin_ctz(hit);
        uint32_t tb;
        __builtin_memcpy(&tb, &t_in[k], sizeof tb);
        uint64_t x = (uint64_t)tb << 3 | (uint64_t)k;
        int j = ne++;
        while (j > 0 && key[j - 1] > x) {
            key[j] = key[j - 1];
            j--;
        }
        key[j] = x;
    }
    for (int j = ne - 1; j >= 0; j--) {
        int k = (int)(key[j] & 7);
        toi_mesh_entry x = {nd->ref[k], nd->count[k], t_in[k]};
        if (j == 0)
            *cur = x;
        else
            stack[(*sp)++] = x;
    }
    return 1;
}

/* The next pending child entered no later than best, or 0 when none is left. */
static inline int toi_mesh_pop(const toi_mesh_entry *stack, size_t *sp, float best,
                               toi_mesh_entry *cur)
{
    while (*sp) {
        toi_mesh_entry e = stack[--*sp];
        if (!(e.t > best)) {
            *cur = e;
            return 1;
        }
    }
    return 0;
}

/* Builder test hook: make the allocation after `after` more succeed fail (-1: never); the
   setting is per thread. */
void toi_mesh_test_fail_alloc(long after);

#endif /* TOI_MESH_H */
