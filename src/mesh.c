/* mesh.c - building and refitting a triangle mesh's bounding-volume hierarchy (shared by
   every backend: a mesh is built once and queried by whichever is active).

   The build is a binned surface-area-heuristic (SAH) one that makes 8-wide nodes directly:
   a node starts with one child holding all its triangles and splits the child of largest
   surface area in two (binned SAH over the triangles' centroids, up to 32 bins on each
   axis) until it has 8 children or every child fits a leaf (<= 8 triangles); children with
   more than 8 become nodes themselves. The SAH cost of a split counts leaf steps, not
   triangles - SA(L) ceil(nL / 8) + SA(R) ceil(nR / 8) - since a leaf of 1 to 8 triangles
   costs one kernel step: this fills leaves, which keeps the mesh small. Below
   TOI_MESH_SAH_DEPTH wide levels (pathological inputs only) splits fall back to the median,
   the child of most triangles first, which bounds the depth (mesh.h). Triangles end up in
   leaf order (mesh.h), so a leaf is one kernel step.

   Non-finite triangles (a NaN or infinite coordinate) are skipped by queries, as in sets,
   but stay in the tree so a refit can bring them back: they sit in leaves of their own,
   whose boxes are empty until a refit gives them finite vertices. Every box is computed by
   refit(), from the triangles up, at build and at refit alike; a box is quantized to 8 bits
   per side within its node, rounded outward (mesh.h). */
#define _DEFAULT_SOURCE /* posix_memalign, madvise */
#include "mesh.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ---- four floats at a time: the build's boxes (finite values only: SSE2 and NEON minimum
   and maximum agree on them) ---- */
#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 f4;
static inline f4 f4_load(const float *p) { return _mm_loadu_ps(p); }
static inline void f4_store(float *p, f4 a) { _mm_storeu_ps(p, a); }
static inline f4 f4_set(float x) { return _mm_set1_ps(x); }
static inline f4 f4_make(float x, float y, float z) { return _mm_setr_ps(x, y, z, 0.0f); }
static inline f4 f4_add(f4 a, f4 b) { return _mm_add_ps(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
static inline f4 f4_min(f4 a, f4 b) { return _mm_min_ps(a, b); }
static inline f4 f4_max(f4 a, f4 b) { return _mm_max_ps(a, b); }
static inline void f4_int(f4 a, int32_t o[4]) { _mm_storeu_si128((__m128i *)o, _mm_cvttps_epi32(a)); }
#elif defined(__ARM_NEON)
#include <arm_neon.h>
typedef float32x4_t f4;
static inline f4 f4_load(const float *p) { return vld1q_f32(p); }
static inline void f4_store(float *p, f4 a) { vst1q_f32(p, a); }
static inline f4 f4_set(float x) { return vdupq_n_f32(x); }
static inline f4 f4_make(float x, float y, float z)
{
    const float v[4] = {x, y, z, 0.0f};
    return vld1q_f32(v);
}
static inline f4 f4_add(f4 a, f4 b) { return vaddq_f32(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return vsubq_f32(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return vmulq_f32(a, b); }
static inline f4 f4_min(f4 a, f4 b) { return vminq_f32(a, b); }
static inline f4 f4_max(f4 a, f4 b) { return vmaxq_f32(a, b); }
static inline void f4_int(f4 a, int32_t o[4]) { vst1q_s32(o, vcvtq_s32_f32(a)); }
#else
typedef struct f4 {
    float v[4];
} f4;
static inline f4 f4_load(const float *p) { f4 r; memcpy(r.v, p, sizeof r.v); return r; }
static inline void f4_store(float *p, f4 a) { memcpy(p, a.v, sizeof a.v); }
static inline f4 f4_set(float x) { return (f4){{x, x, x, x}}; }
static inline f4 f4_make(float x, float y, float z) { return (f4){{x, y, z, 0.0f}}; }
#define F4_OP(name, expr)                                \
    static inline f4 name(f4 a, f4 b)                    \
    {                                                    \
        f4 r;                                            \
        for (int i = 0; i < 4; i++) {                    \
            float x = a.v[i], y = b.v[i];                \
            r.v[i] = (expr);                             \
        }                                                \
        return r;                                        \
    }
F4_OP(f4_add, x + y)
F4_OP(f4_sub, x - y)
F4_OP(f4_mul, x * y)
F4_OP(f4_min, x < y ? x : y)
F4_OP(f4_max, x > y ? x : y)
static inline void f4_int(f4 a, int32_t o[4])
{
    for (int i = 0; i < 4; i++)
        o[i] = (int32_t)a.v[i];
}
#endif

/* before a small loop of fixed count: straight-line code wanted (GCC keeps such loops at -O2) */
#define UNROLL _Pragma("GCC unroll 16")

/* ---- allocation, with the tests' failure hook ---- */

static _Thread_local long fail_after = -1;

void toi_mesh_test_fail_alloc(long after)
{
    fail_after = after;
}

static int alloc_fails(void)
{
    if (fail_after < 0)
        return 0;
    return fail_after-- == 0;
}

/* Arrays of two huge pages or more (the triangles of meshes from about 10^5 triangles, the
   nodes from about 10^6) are aligned to a huge page and, on Linux, their whole huge pages
   marked for transparent huge pages (a hint, where the system's setting is "madvise";
   "always" gives them anyway, "never" none): a query's walk touches a large hierarchy at
   random, and with 4 KiB pages most of its node and leaf reads also miss the TLB. The tail
   beyond the last whole huge page keeps 4 KiB pages, so no memory is used beyond the array. */
#define TOI_MESH_HUGE ((size_t)2 << 20) /* the x86-64 and aarch64 (4 KiB granule) huge page */

static void *mesh_alloc(size_t n) /* 64-byte aligned */
{
    if (alloc_fails())
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= 2 * TOI_MESH_HUGE) {
        void *p = NULL;
        if (posix_memalign(&p, TOI_MESH_HUGE, n) != 0)
            return NULL;
        (void)madvise(p, n & ~(TOI_MESH_HUGE - 1), MADV_HUGEPAGE); /* a hint: may fail */
        return p;
    }
#endif
    return aligned_alloc(64, (n + 63) / 64 * 64);
}

/* ---- boxes ---- */

typedef struct box {
    float lo[4], hi[4]; /* [3] unused */
} box;

static const box box_empty = {{INFINITY, INFINITY, INFINITY, INFINITY},
                              {-INFINITY, -INFINITY, -INFINITY, -INFINITY}};

static inline void box_grow(box *b, const box *x) /* finite or empty boxes */
{
    f4_store(b->lo, f4_min(f4_load(b->lo), f4_load(x->lo)));
    f4_store(b->hi, f4_max(f4_load(b->hi), f4_load(x->hi)));
}

static inline int box_is_empty(const box *b)
{
    return !(b->lo[0] <= b->hi[0]);
}

/* Half the surface area, in double (no overflow for any finite box). */
static inline double box_area(const box *b)
{
    double dx = (double)b->hi[0] - (double)b->lo[0], dy = (double)b->hi[1] - (double)b->lo[1];
    double dz = (double)b->hi[2] - (double)b->lo[2];
    return dx * dy + dy * dz + dz * dx;
}

/* A triangle's vertices as three vectors (lane 3: 0), from its nine coordinates. */
typedef struct tri3 {
    f4 a, b, c;
} tri3;

static inline tri3 tri3_make(const float v[9])
{
    return (tri3){f4_make(v[0], v[1], v[2]), f4_make(v[3], v[4], v[5]),
                  f4_make(v[6], v[7], v[8])};
}

/* All its coordinates finite: v - v is 0 for a finite v, NaN otherwise. */
static inline int tri3_finite(tri3 t)
{
    float z[4];
    f4_store(z, f4_add(f4_add(f4_sub(t.a, t.a), f4_sub(t.b, t.b)), f4_sub(t.c, t.c)));
    return ((z[0] + z[1]) + z[2]) == 0.0f;
}

static inline void tri3_box(tri3 t, float lo[4], float hi[4])
{
    f4_store(lo, f4_min(f4_min(t.a, t.b), t.c));
    f4_store(hi, f4_max(f4_max(t.a, t.b), t.c));
}

/* ---- the builder ---- */

/* One triangle during the build: its box and its index (32 bytes, moved in place by the
   partitions; lo[3] holds the index's bits). */
typedef struct bprim {
    float lo[4], hi[4];
} bprim;

static inline uint32_t prim_index(const bprim *p)
{
    uint32_t i;
    memcpy(&i, &p->lo[3], sizeof i);
    return i;
}

/* Centroid of a prim (halves first: no overflow). */
static inline f4 prim_centroid(const bprim *p)
{
    const f4 h = f4_set(0.5f);
    return f4_add(f4_mul(f4_load(p->lo), h), f4_mul(f4_load(p->hi), h));
}

/* The bin of centroid c along each axis: (c - org) * k clamped to [0, top], as an integer.
   The binning and the partition both take it from here, so each triangle goes to the side its
   bin is on. k is +inf along an axis whose centroids spread by less than about
   nb / FLT_MAX (denormal amounts): a centroid past the first is then +inf, clamped to the
   last bin, and one at it 0 * inf = NaN, which the maximum makes 0 (SSE2 returns its second
   operand, the portable form compares; NEON's NaN converts to 0). */
static inline void prim_bin(f4 c, f4 org, f4 k, f4 top, int32_t bi[4])
{
    f4_int(f4_min(f4_max(f4_mul(f4_sub(c, org), k), f4_set(0.0f)), top), bi);
}

typedef struct builder {
    bprim *p;
    toi_mesh_node *nodes;
    size_t nnodes, cap;
    int failed;
} builder;

/* A range of prims with its box and its centroids' box. */
typedef struct range {
    uint32_t start, end;
    box b, cb;
} range;

#define NBINS 32

static uint32_t new_node(builder *B)
{
    if (B->nnodes == B->cap) {
        size_t cap = B->cap ? 2 * B->cap : 64;
        toi_mesh_node *n = alloc_fails() ? NULL : realloc(B->nodes, cap * sizeof *n);
        if (!n) {
            B->failed = 1;
            return 0;
        }
        B->nodes = n;
        B->cap = cap;
    }
    toi_mesh_node *nd = &B->nodes[B->nnodes];
    memset(nd, 0, sizeof *nd);
    return (uint32_t)B->nnodes++;
}

/* The boxes of r's prims and of their centroids. */
static void range_boxes(const builder *B, range *r)
{
    f4 lo = f4_set(INFINITY), hi = f4_set(-INFINITY);
    f4 clo = lo, chi = hi;
    for (uint32_t i = r->start; i < r->end; i++) {
        const bprim *p = &B->p[i];
        f4 c = prim_centroid(p);
        lo = f4_min(lo, f4_load(p->lo)), hi = f4_max(hi, f4_load(p->hi));
        clo = f4_min(clo, c), chi = f4_max(chi, c);
    }
    f4_store(r->b.lo, lo), f4_store(r->b.hi, hi);
    f4_store(r->cb.lo, clo), f4_store(r->cb.hi, chi);
}

/* Leaf steps for n triangles. */
static inline float steps(uint32_t n)
{
    return (float)((n + (TOI_MESH_W - 1)) >> 3);
}

/* Half the surface area in float, for the SAH sweeps (a box of extents near FLT_MAX gives
   Inf, and then no split by the SAH: the median). */
static inline float box_area_f(const box *b)
{
    float dx = b->hi[0] - b->lo[0], dy = b->hi[1] - b->lo[1], dz = b->hi[2] - b->lo[2];
    return dx * dy + dy * dz + dz * dx;
}

/* Split r in two: binned SAH on the centroids, or at the median (rounded to whole leaves)
   when `median` is set or no bin boundary separates the centroids. A large range is binned
   from an even sample of about 8192 of its triangles (the costs of the bin boundaries from
   the sample, scaled): the choice of the plane barely changes and the top levels, which
   stream the whole mesh, cost a fraction; the partition then computes both sides' exact
   boxes. */
static void split(builder *B, const range *r, int median, range *L, range *R)
{
    uint32_t n = r->end - r->start;
    int axis = -1, at = 0;
    float org[4] = {0, 0, 0, 0}, k[4] = {0, 0, 0, 0};
    box bestL = box_empty, bestR = box_empty;
    const uint32_t stride = n > 16384 ? n / 8192 : 1;
    int nb = 0;
    if (!median) {
        nb = (int)(n / 8 + 4 < NBINS ? n / 8 + 4 : NBINS);
        /* the two axes along which the centroids spread most (a plane across the third,
           the flattest, rarely separates better) */
        float e3[3];
        for (int a = 0; a < 3; a++)
            e3[a] = r->cb.hi[a] - r->cb.lo[a];
        int small = e3[0] < e3[1] ? (e3[0] < e3[2] ? 0 : 2) : (e3[1] < e3[2] ? 1 : 2);
        const int ax[2] = {small == 0 ? 1 : 0, small == 2 ? 1 : 2};
        box bins[2][NBINS];
        uint32_t cnt[2][NBINS];
        int use[2];
        for (int u = 0; u < 2; u++) {
            int a = ax[u];
            float ext = e3[a];
            use[u] = ext > 0.0f && ext <= FLT_MAX;
            org[a] = r->cb.lo[a];
            k[a] = use[u] ? (float)nb * (1.0f - 0x1p-20f) / ext : 0.0f;
            for (int j = 0; j < nb; j++)
                bins[u][j] = box_empty, cnt[u][j] = 0;
        }
        const f4 vorg = f4_load(org), vk = f4_load(k), top = f4_set((float)(nb - 1));
        uint32_t sampled = 0;
        for (uint32_t i = r->start; i < r->end; i += stride, sampled++) {
            const bprim *p = &B->p[i];
            int32_t bi[4];
            prim_bin(prim_centroid(p), vorg, vk, top, bi);
            const f4 lo = f4_load(p->lo), hi = f4_load(p->hi);
            UNROLL
            for (int u = 0; u < 2; u++) {
                box *b = &bins[u][bi[ax[u]]];
                f4_store(b->lo, f4_min(f4_load(b->lo), lo));
                f4_store(b->hi, f4_max(f4_load(b->hi), hi));
                cnt[u][bi[ax[u]]]++;
            }
        }
        float best = INFINITY;
        for (int u = 0; u < 2; u++) {
            if (!use[u])
                continue;
            float right_cost[NBINS];
            box right[NBINS];
            box acc = box_empty;
            uint32_t c = 0;
            for (int j = nb - 1; j > 0; j--) {
                box_grow(&acc, &bins[u][j]);
                c += cnt[u][j];
                right[j] = acc;
                right_cost[j] = c ? box_area_f(&acc) * steps(c * stride) : 0.0f;
            }
            acc = box_empty, c = 0;
            for (int j = 0; j + 1 < nb; j++) {
                box_grow(&acc, &bins[u][j]);
                c += cnt[u][j];
                if (c == 0 || c == sampled)
                    continue;
                float cost = box_area_f(&acc) * steps(c * stride) + right_cost[j + 1];
                if (cost < best) {
                    best = cost;
                    axis = ax[u];
                    at = j + 1;
                    bestL = acc;
                    bestR = right[j + 1];
                }
            }
        }
    }
    if (axis < 0) {
        /* whole leaves to the left, about half; the prims stay in their order */
        uint32_t half = (n / 2 + TOI_MESH_W - 1) / TOI_MESH_W * TOI_MESH_W;
        uint32_t mid = r->start + (half < n ? half : n / 2);
        L->start = r->start, L->end = mid;
        R->start = mid, R->end = r->end;
        range_boxes(B, L);
        range_boxes(B, R);
        return;
    }
    /* partition: bin < at to the left (prim_bin, as the binning; an unclamped +inf converted
       to int, undefined, once sent every triangle left), gathering each side's centroid box */
    const f4 vorg = f4_load(org), vk = f4_load(k), top = f4_set((float)(nb - 1));
    f4 lclo = f4_set(INFINITY), lchi = f4_set(-INFINITY), rclo = lclo, rchi = lchi;
    f4 llo = lclo, lhi = lchi, rlo = lclo, rhi = lchi; /* prim boxes, when sampled */
    uint32_t i = r->start, j = r->end;
    while (i < j) {
        bprim *p = &B->p[i];
        int32_t bi[4];
        f4 cv = prim_centroid(p);
        prim_bin(cv, vorg, vk, top, bi);
        if (bi[axis] < at) {
            lclo = f4_min(lclo, cv), lchi = f4_max(lchi, cv);
            if (stride > 1)
                llo = f4_min(llo, f4_load(p->lo)), lhi = f4_max(lhi, f4_load(p->hi));
            i++;
        } else {
            rclo = f4_min(rclo, cv), rchi = f4_max(rchi, cv);
            if (stride > 1)
                rlo = f4_min(rlo, f4_load(p->lo)), rhi = f4_max(rhi, f4_load(p->hi));
            bprim t = *p;
            *p = B->p[--j];
            B->p[j] = t;
        }
    }
    if (stride > 1) {
        f4_store(bestL.lo, llo), f4_store(bestL.hi, lhi);
        f4_store(bestR.lo, rlo), f4_store(bestR.hi, rhi);
    }
    L->start = r->start, L->end = i, L->b = bestL;
    R->start = i, R->end = r->end, R->b = bestR;
    f4_store(L->cb.lo, lclo), f4_store(L->cb.hi, lchi);
    f4_store(R->cb.lo, rclo), f4_store(R->cb.hi, rchi);
}

/* Which child a node splits next: the one of largest surface area (SAH levels) or, below
   TOI_MESH_SAH_DEPTH, the one of most triangles; -1 when it fits a leaf. By area alone, a
   median level could leave half of its triangles in one child (the others' boxes larger),
   so the median levels below could halve the count instead of dividing it by about 8; by
   count, a child of a median node holds at most about 1/8 of it plus a leaf, and a tree
   stays within TOI_MESH_MAX_DEPTH levels (the traversal stack's bound). */
static double split_priority(const range *r, int median)
{
    uint32_t n = r->end - r->start;
    if (n <= TOI_MESH_W)
        return -1.0;
    return median ? (double)n : box_area(&r->b);
}

/* A node over the range r (more than W triangles): returns its index. */
static uint32_t build_node(builder *B, const range *r, int depth)
{
    range ch[TOI_MESH_W];
    double prio[TOI_MESH_W]; /* split_priority */
    const int median = depth >= TOI_MESH_SAH_DEPTH;
    int nch = 1;
    ch[0] = *r;
    prio[0] = split_priority(r, median);
    while (nch < TOI_MESH_W) {
        int pick = -1;
        double most = -1.0;
        for (int c = 0; c < nch; c++)
            if (prio[c] > most)
                pick = c, most = prio[c];
        if (pick < 0)
            break;
        range L, R;
        split(B, &ch[pick], median, &L, &R);
        ch[pick] = L;
        ch[nch] = R;
        prio[pick] = split_priority(&L, median);
        prio[nch] = split_priority(&R, median);
        nch++;
    }
    uint32_t id = new_node(B);
    if (B->failed)
        return 0;
    B->nodes[id].nchild = (uint8_t)nch;
    for (int c = 0; c < nch; c++) {
        uint32_t cnt = ch[c].end - ch[c].start;
        uint32_t ref = ch[c].start;
        uint8_t kind = (uint8_t)cnt;
        if (cnt > TOI_MESH_W) {
            ref = build_node(B, &ch[c], depth + 1);
            if (B->failed)
                return 0;
            kind = TOI_MESH_INNER;
        }
        B->nodes[id].ref[c] = ref;
        B->nodes[id].count[c] = kind;
    }
    return id;
}

/* A node over prims [s, e) without the SAH (the non-finite triangles, whose boxes are
   empty): consecutive leaves of W under a balanced tree. */
static uint32_t build_plain(builder *B, uint32_t s, uint32_t e)
{
    uint32_t n = e - s;
    uint32_t per = TOI_MESH_W; /* triangles under each child */
    while ((uint64_t)per * TOI_MESH_W < n)
        per *= TOI_MESH_W;
    uint32_t id = new_node(B);
    if (B->failed)
        return 0;
    int c = 0;
    for (uint32_t at = s; at < e; at += per, c++) {
        uint32_t cnt = e - at < per ? e - at : per;
        uint32_t ref = at;
        uint8_t kind = (uint8_t)cnt;
        if (cnt > TOI_MESH_W) {
            ref = build_plain(B, at, at + cnt);
            if (B->failed)
                return 0;
            kind = TOI_MESH_INNER;
        }
        B->nodes[id].ref[c] = ref;
        B->nodes[id].count[c] = kind;
    }
    B->nodes[id].nchild = (uint8_t)c;
    return id;
}

/* ---- boxes from the triangles up, quantized ---- */

/* Child k's box as the queries see it (mesh.h: the same expression). */
static box node_child_box(const toi_mesh_node *nd, int k)
{
    box b = box_empty;
    if (!(nd->q[0][k] <= nd->q[3][k]))
        return b;
    for (int a = 0; a < 3; a++) {
        b.lo[a] = nd->org[a] + (float)nd->q[a][k] * nd->scl[a];
        b.hi[a] = nd->org[a] + (float)nd->q[3 + a][k] * nd->scl[a];
    }
    return b;
}

/* Quantize the children's exact boxes cb[0..nchild) into nd, rounded outward: every
   dequantized box holds its exact one (checked with the queries' expression). */
static void quantize(toi_mesh_node *nd, const box *cb)
{
    box all = box_empty;
    for (int k = 0; k < nd->nchild; k++)
        box_grow(&all, &cb[k]);
    for (int k = 0; k < TOI_MESH_W; k++)
        for (int a = 0; a < 3; a++)
            nd->q[a][k] = 1, nd->q[3 + a][k] = 0;
    if (box_is_empty(&all)) {
        for (int a = 0; a < 3; a++)
            nd->org[a] = 0.0f, nd->scl[a] = 0.0f;
        return;
    }
    for (int a = 0; a < 3; a++) {
        float org = all.lo[a], scl = (all.hi[a] - org) / 255.0f;
        if (!(scl <= FLT_MAX))
            scl = FLT_MAX;
        while (org + 255.0f * scl < all.hi[a])
            scl = nextafterf(scl, INFINITY);
        nd->org[a] = org, nd->scl[a] = scl;
        float inv = scl > 0.0f ? 1.0f / scl : 0.0f;
        for (int k = 0; k < nd->nchild; k++) {
            if (box_is_empty(&cb[k]))
                continue;
            float fl = (cb[k].lo[a] - org) * inv, fh = (cb[k].hi[a] - org) * inv;
            int ql = fl > 0.0f ? (fl < 255.0f ? (int)fl : 255) : 0;
            int qh = fh > 0.0f ? (fh < 254.0f ? (int)fh + 1 : 255) : 0;
            while (ql > 0 && org + (float)ql * scl > cb[k].lo[a])
                ql--;
            while (qh < 255 && org + (float)qh * scl < cb[k].hi[a])
                qh++;
            nd->q[a][k] = (uint8_t)ql, nd->q[3 + a][k] = (uint8_t)qh;
        }
    }
}

/* Loads each leaf's triangles from the arrays given (src, by the slots' indices) into its
   block and recomputes every box, children before parents (a child node's index exceeds
   its parent's); a leaf's box ignores its non-finite triangles. Returns the boxes written
   (the BV updates, cost nu). */
static uint64_t refit(toi_mesh *m, const float *const src[9])
{
    uint64_t nu = 0;
    for (size_t i = m->nnodes; i-- > 0;) {
        toi_mesh_node *nd = &m->nodes[i];
        box cb[TOI_MESH_W];
        for (int c = 0; c < nd->nchild; c++) {
            box b = box_empty;
            if (nd->count[c] == TOI_MESH_INNER) {
                const toi_mesh_node *ch = &m->nodes[nd->ref[c]];
                for (int j = 0; j < ch->nchild; j++) {
                    box x = node_child_box(ch, j);
                    box_grow(&b, &x);
                }
            } else {
                const uint32_t s = nd->ref[c], n = nd->count[c];
                float *blk = toi_mesh_row(m, s, n, 0);
                for (uint32_t j = 0; j < n; j++) {
                    uint32_t idx = toi_mesh_index(m, s, n, j);
                    float v[9];
                    UNROLL
                    for (int k = 0; k < 9; k++)
                        blk[k * n + j] = v[k] = src[k][idx];
                    tri3 t3 = tri3_make(v);
                    if (!tri3_finite(t3))
                        continue;
                    box t;
                    tri3_box(t3, t.lo, t.hi);
                    box_grow(&b, &t);
                }
            }
            cb[c] = b;
        }
        quantize(nd, cb);
        nu += nd->nchild;
    }
    return nu;
}

static int triangles_given(const toi_triangles *t)
{
    return t && t->ax && t->ay && t->az && t->bx && t->by && t->bz && t->cx && t->cy &&
           t->cz;
}

void toi_mesh_free(toi_mesh *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m->tri);
    free(m);
}

toi_mesh *toi_mesh_build(size_t ntris, const toi_triangles *tri)
{
    /* an index must fit a uint32_t below UINT32_MAX, the miss value */
    if (ntris == 0 || ntris >= UINT32_MAX || !triangles_given(tri))
        return NULL;
    toi_mesh *m = alloc_fails() ? NULL : calloc(1, sizeof *m);
    bprim *p = mesh_alloc(ntris * sizeof *p);
    builder B = {p, NULL, 0, 0, 0};
    if (!m || !p)
        goto fail;
    m->ntris = ntris;

    /* finite triangles first (in index order), then the others (in index order) */
    const float *const src[9] = {tri->ax, tri->ay, tri->az, tri->bx, tri->by,
                                 tri->bz, tri->cx, tri->cy, tri->cz};
    uint32_t nf = 0, nj = 0;
    for (size_t i = 0; i < ntris; i++) {
        float v[9];
        UNROLL
        for (int k = 0; k < 9; k++)
            v[k] = src[k][i];
        tri3 t3 = tri3_make(v);
        if (!tri3_finite(t3))
            continue;
        bprim *q = &p[nf++];
        tri3_box(t3, q->lo, q->hi);
        uint32_t idx = (uint32_t)i;
        memcpy(&q->lo[3], &idx, sizeof idx);
    }
    for (size_t i = 0; i < ntris && nf + nj < ntris; i++) {
        float v[9];
        UNROLL
        for (int k = 0; k < 9; k++)
            v[k] = src[k][i];
        if (tri3_finite(tri3_make(v)))
            continue;
        bprim *q = &p[nf + nj++];
        memset(q, 0, sizeof *q);
        uint32_t idx = (uint32_t)i;
        memcpy(&q->lo[3], &idx, sizeof idx);
    }

    /* the root: the finite triangles' tree, the others' beside it */
    uint32_t root = new_node(&B);
    if (B.failed)
        goto fail;
    int c = 0;
    if (nf > 0) {
        range all = {0, nf, box_empty, box_empty};
        range_boxes(&B, &all);
        uint32_t ref = 0;
        uint8_t kind = (uint8_t)nf;
        if (nf > TOI_MESH_W) {
            ref = build_node(&B, &all, 1);
            kind = TOI_MESH_INNER;
        }
        if (B.failed)
            goto fail;
        B.nodes[root].ref[c] = ref, B.nodes[root].count[c++] = kind;
    }
    if (nj > 0) {
        uint32_t ref = nf;
        uint8_t kind = (uint8_t)nj;
        if (nj > TOI_MESH_W) {
            ref = build_plain(&B, nf, nf + nj);
            kind = TOI_MESH_INNER;
        }
        if (B.failed)
            goto fail;
        B.nodes[root].ref[c] = ref, B.nodes[root].count[c++] = kind;
    }
    B.nodes[root].nchild = (uint8_t)c;

    /* the final layout: the nodes, then the leaves' blocks and the slots' indices */
    m->nnodes = B.nnodes;
    m->nodes = mesh_alloc(B.nnodes * sizeof(toi_mesh_node));
    size_t nfl = 10 * ntris + TOI_MESH_PAD;
    m->tri = mesh_alloc(nfl * sizeof(float));
    if (!m->nodes || !m->tri)
        goto fail;
    memcpy(m->nodes, B.nodes, B.nnodes * sizeof(toi_mesh_node));
    for (size_t s = 10 * ntris; s < nfl; s++)
        m->tri[s] = 0.0f;
    /* each leaf's index row */
    for (size_t i = 0; i < B.nnodes; i++)
        for (int k = 0; k < B.nodes[i].nchild; k++) {
            uint32_t s = B.nodes[i].ref[k], n = B.nodes[i].count[k];
            if (n == TOI_MESH_INNER)
                continue;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t idx = prim_index(&p[s + j]);
                memcpy(toi_mesh_row(m, s, n, 9) + j, &idx, sizeof idx);
            }
        }
    m->bytes = sizeof *m + B.nnodes * sizeof(toi_mesh_node) + nfl * sizeof(float);
    free(B.nodes);
    free(p);
    refit(m, src);
    return m;

fail:
    free(B.nodes);
    free(p);
    toi_mesh_free(m);
    return NULL;
}

int toi_mesh_refit(toi_mesh *m, size_t ntris, const toi_triangles *tri, toi_cost *cost)
{
    if (!m || ntris != m->ntris || !triangles_given(tri))
        return TOI_EINVAL;
    const float *const src[9] = {tri->ax, tri->ay, tri->az, tri->bx, tri->by,
                                 tri->bz, tri->cx, tri->cy, tri->cz};
    uint64_t nu = refit(m, src);
    if (cost)
        cost->nu += nu;
    return TOI_OK;
}

size_t toi_mesh_bytes(const toi_mesh *m)
{
    return m ? m->bytes : 0;
}
