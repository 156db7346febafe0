/* simd/mesh_walk.h - the mesh traversal, written once over the vector layer and shared by
   the sphere and capsule mesh sweeps (simd/mesh.h, simd/capsules.h): a node's children boxes
   VW at a time, the query's own kernel in the leaves. The node test performs the scalar
   reference's operations (src/scalar/mesh.c) in the same order, so the visit - and the cost
   counters - are the same on every backend. */
#ifndef TOI_SIMD_MESH_WALK_H
#define TOI_SIMD_MESH_WALK_H

#include "../mesh.h"
#include "tri_sweep.h"

/* The node test (mesh.h) of children [k0, k0 + VW) of nd (lanes past child 7 are off):
   returns the bit mask of the children that pass (bit k for child k0 + k) and stores their
   entry times in t_in[k0 ..]. ext: a capsule's box stretch (elo then ehi, mesh.h), or NULL
   for a sphere (whose stretch is 0: the same values without the subtractions). */
TOI_VINLINE unsigned node_test(const toi_mesh_node *nd, int k0, const vm negm[3], const vf P[3],
                               const vf I[3], const vf *ext, vf base, vf r, vf tb, float *t_in)
{
    vf L[3], H[3], e[3];
    vm nonempty = vlt(lane_ids(), vset((float)(TOI_MESH_W - k0)));
    TOI_UNROLL
    for (int a = 0; a < 3; a++) {
        vf ql = vload_u8(nd->q[a] + k0), qh = vload_u8(nd->q[3 + a] + k0);
        const vf org = vset(nd->org[a]), scl = vset(nd->scl[a]);
        nonempty = mand(nonempty, vle(ql, qh));
        L[a] = vsub(vadd(org, vmul(ql, scl)), P[a]);
        H[a] = vsub(vadd(org, vmul(qh, scl)), P[a]);
        vf al = vabs(L[a]), ah = vabs(H[a]);
        e[a] = vsel(vgt(al, ah), al, ah);
        if (ext) {
            L[a] = vsub(L[a], ext[a]);
            H[a] = vsub(H[a], ext[3 + a]);
        }
    }
    vf sn = vadd(vmul(vset(3.0f), vadd(vadd(e[0], e[1]), e[2])), base);
    vf g = vadd(r, vmul(vset(TOI_BOX_MARGIN), sn));
    vf ti = vzero(), to = tb;
    /* the near and far planes by the sign of 1 / v: selects, not branches (a new sphere's
       direction is unpredictable) */
    TOI_UNROLL
    for (int a = 0; a < 3; a++) {
        vf ta = vmul(vsub(L[a], g), I[a]), tb_ = vmul(vadd(H[a], g), I[a]);
        vf tin = vsel(negm[a], tb_, ta), tout = vsel(negm[a], ta, tb_);
        ti = vsel(vgt(tin, ti), tin, ti);
        to = vsel(vlt(tout, to), tout, to);
    }
    vstore(t_in + k0, ti);
    return mbits(mand(nonempty, vle(ti, to)));
}

/* The leaf's query (as the scalar's toi_scalar_mesh_leaf): offer each triangle of leaf
   (ref, cnt) that the query hits to *b. */
typedef void (*mesh_leaf_fn)(const void *ctx, const toi_mesh *m, uint32_t ref, uint32_t cnt,
                             toi_mesh_best *b);

/* Walks in flight at once (mesh_walk_batch). Each holds a stack of TOI_MESH_STACK entries
   (about 4.5 KB) on the caller's stack. */
#define TOI_MESH_INFLIGHT 4

/* One query's walk: its path, the entry it visits next, its pending children and its best
   hit so far. */
typedef struct mesh_walker {
    toi_mesh_ray q;
    toi_mesh_entry cur;
    toi_mesh_best b;
    size_t sp, i;
    toi_mesh_entry stack[TOI_MESH_STACK];
} mesh_walker;

/* A node's step of the scalar's walk (src/scalar/mesh.c, toi_scalar_mesh_walk) for w, whose
   path has a capsule's stretch when `capsule`: the node's test and the child it goes on with,
   else the next pending child. Returns 0 when the walk is over: w->b is the winner. */
TOI_VINLINE int mesh_walk_node(mesh_walker *w, int capsule, const toi_mesh *m, int prefetch,
                               uint64_t *nv)
{
    const toi_mesh_ray *q = &w->q;
    const vm negm[3] = {mconst(q->negx), mconst(q->negy), mconst(q->negz)};
    const vf P[3] = {vset(q->px), vset(q->py), vset(q->pz)};
    const vf I[3] = {vset(q->ix), vset(q->iy), vset(q->iz)};
    const vf ext[6] = {vset(q->elo[0]), vset(q->elo[1]), vset(q->elo[2]),
                       vset(q->ehi[0]), vset(q->ehi[1]), vset(q->ehi[2])};
    const vf base = vset(q->base), rin = vset(q->r);
    float t_in[16]; /* room for a whole vector's store at lane k0 (VW <= 16) */
    const toi_mesh_node *nd = &m->nodes[w->cur.ref];
    const vf tb = vset(w->b.t < 1.0f ? w->b.t : 1.0f);
    unsigned hit = 0;
    TOI_UNROLL
    for (int k0 = 0; k0 < TOI_MESH_W; k0 += VW)
        hit |= node_test(nd, k0, negm, P, I, capsule ? ext : NULL, base, rin, tb, t_in) << k0;
    *nv += nd->nchild;
    hit &= (1u << TOI_MESH_W) - 1;
    if (prefetch)
        toi_mesh_prefetch_hits(m, nd, hit);
    if (toi_mesh_descend(w->stack, &w->sp, nd, hit, t_in, &w->cur))
        return 1;
    return toi_mesh_pop(w->stack, &w->sp, w->b.t, &w->cur);
}

/* One step of the scalar's walk for w: a node's (mesh_walk_node), or a leaf's triangles
   offered to w->b, then the next pending child. Returns 0 when the walk is over. */
TOI_VINLINE int mesh_walk_step(mesh_walker *w, int capsule, const toi_mesh *m, int prefetch,
                               mesh_leaf_fn leaf, const void *ctx, uint64_t *nv, uint64_t *np)
{
    if (w->cur.count == TOI_MESH_INNER)
        return mesh_walk_node(w, capsule, m, prefetch, nv);
    *np += w->cur.count;
    leaf(ctx, m, w->cur.ref, w->cur.count, &w->b);
    return toi_mesh_pop(w->stack, &w->sp, w->b.t, &w->cur);
}

/* What every query of a mesh batch shares: its inputs (toi_spheres or toi_capsules), the
   mesh, the outputs, the flags, and the queue of winners to recompute (tri_sweep.h) with
   the query's recompute (flush). */
typedef struct mesh_batch {
    const void *in;
    const toi_mesh *m;
    const toi_hits *out;
    vm all_overlaps, cull_on;
    int full;
    win_queue *wq;
    win_flush_fn flush;
} mesh_batch;

TOI_VINLINE mesh_batch mesh_batch_make(const void *in, const toi_mesh *m, unsigned flags,
                                       const toi_hits *out, win_queue *wq, win_flush_fn flush)
{
    wq->n = 0;
    return (mesh_batch){in,  m, out, mconst((flags & TOI_ALL_OVERLAPS) != 0),
                        mconst((flags & TOI_CULL_BACKFACES) != 0), toi_wants_full(out),
                        wq,  flush};
}

/* A query's start: its path in *q and its leaf context in *ctx; 0: it walks no mesh, a
   miss. */
typedef int (*mesh_begin_fn)(const mesh_batch *Q, size_t i, toi_mesh_ray *q, void *ctx);

/* Query i's end: its outputs from its winner b, queued to be recomputed with others (by
   Q->flush once the queue is full); returns 1 for a hit. */
TOI_VINLINE size_t mesh_walk_end(const mesh_batch *Q, size_t i, const toi_mesh_best *b)
{
    float Tw[9];
    for (int c = 0; c < 9; c++)
        Tw[c] = b->win != UINT32_MAX ? toi_mesh_row(Q->m, b->ref, b->cnt, c)[b->j] : 0.0f;
    return win_queue_offer(Q->wq, Q->flush, Q->in, i, b->win, b->t, Tw, Q->all_overlaps,
                           Q->cull_on, Q->out, Q->full);
}

/* Slot k's walk takes the next query that walks (the others end as misses at once);
   returns 0 when no query is left. */
TOI_VINLINE int mesh_walk_take(mesh_walker *w, void *ctx, size_t n, size_t *next,
                               const mesh_batch *Q, mesh_begin_fn begin, size_t *hits)
{
    const toi_mesh_best miss = {INFINITY, UINT32_MAX, 0, 0, 0};
    while (*next < n) {
        size_t i = (*next)++;
        if (begin(Q, i, &w->q, ctx)) {
            w->cur = (toi_mesh_entry){0, TOI_MESH_INNER, 0.0f};
            w->b = miss;
            w->sp = 0, w->i = i;
            return 1;
        }
        *hits += mesh_walk_end(Q, i, &miss);
    }
    return 0;
}

/* Walk k's walk over: its outputs, and the next query that walks taken into slot k; returns
   0 when no query is left (the slot is off). */
TOI_VINLINE int mesh_walk_over(mesh_walker *w, void *ctx, size_t n, size_t *next,
                               const mesh_batch *Q, mesh_begin_fn begin, size_t *hits)
{
    *hits += mesh_walk_end(Q, w->i, &w->b);
    return mesh_walk_take(w, ctx, n, next, Q, begin, hits);
}

/* The batch's end: the queue's last winners recomputed, and the cost (may be NULL) gains the
   batch's nv and np. */
TOI_VINLINE void mesh_walk_finish(const mesh_batch *Q, toi_cost *cost, uint64_t nv, uint64_t np)
{
    Q->flush(Q->wq, Q->in, Q->all_overlaps, Q->cull_on, Q->out, Q->full);
    if (cost) {
        cost->nv += nv;
        cost->np += np;
    }
}

/* Queries [0, n) down the mesh, TOI_MESH_INFLIGHT walks at a time taking steps in turn, so
   their memory latencies overlap instead of adding up (and, on a mesh of at least
   TOI_MESH_PREFETCH_BYTES, the children a step fetches, toi_mesh_prefetch_hits, arrive while
   the other walks step). Each walk is the scalar's,
   step for step, and owns its state (slot k's leaf context is ctxs + k ctx_size), so its
   winner and its cost do not depend on the others; each query's outputs are its own
   (those beyond t recomputed VW queries at a time, mesh_walk_end, the queue's last entries
   once the walks are done). Returns the hits; cost (may be NULL) gains the batch's nv and np. */
TOI_VINLINE size_t mesh_walk_batch(size_t n, const mesh_batch *Q, int capsule, void *ctxs,
                                   size_t ctx_size, mesh_begin_fn begin, mesh_leaf_fn leaf,
                                   toi_cost *cost)
{
    const toi_mesh *m = Q->m;
    const int prefetch = m->bytes >= TOI_MESH_PREFETCH_BYTES;
    mesh_walker w[TOI_MESH_INFLIGHT];
    int on[TOI_MESH_INFLIGHT];
    size_t next = 0, hits = 0;
    uint64_t nv = 0, np = 0;
    int live = 0;
    for (int k = 0; k < TOI_MESH_INFLIGHT; k++) {
        on[k] = mesh_walk_take(&w[k], (char *)ctxs + k * ctx_size, n, &next, Q, begin, &hits);
        live += on[k];
    }
    while (live) {
        for (int k = 0; k < TOI_MESH_INFLIGHT; k++) {
            if (!on[k])
                continue;
            void *ctx = (char *)ctxs + k * ctx_size;
            if (mesh_walk_step(&w[k], capsule, m, prefetch, leaf, ctx, &nv, &np))
                continue;
            on[k] = mesh_walk_over(&w[k], ctx, n, &next, Q, begin, &hits);
            live -= !on[k];
        }
    }
    mesh_walk_finish(Q, cost, nv, np);
    return hits;
}

/* The packed walk (mesh_walk_packed): a leaf's query in two parts. live: which triangles of
   the leaf (ref, cnt) the query ctx could hit by the best time tb (bit j for triangle j; a
   triangle left out is one it cannot hit by then). kernel: the query's kernel, t alone, on VW
   packed lanes, each with its own query (query[l], an index into the batch's inputs) and
   triangle (Tv), on the lanes live; returns the lanes that hit, their times in *t. */
typedef unsigned (*mesh_live_fn)(const void *ctx, const toi_mesh *m, uint32_t ref, uint32_t cnt,
                                 float tb);
typedef vm (*mesh_kernel_fn)(const mesh_batch *Q, const uint32_t query[VW], const vf Tv[9],
                             vm live, vf *t);

/* Walks in flight at once in the packed walk (at most 32: the walks' bit masks): on the 8-
   and 16-lane backends more than mesh_walk_batch's, as a walk waits at each leaf it keeps
   triangles of until the pack runs, and a whole vector takes the triangles of two or three
   leaves (eight against four walks: 0.84x to 0.98x the time, and about 19 KB more stack);
   on the 4-lane backends, whose vector a leaf nearly fills, mesh_walk_batch's four. */
#define TOI_MESH_PACK_WALKS (VW >= 8 ? 8 : 4)

/* Room for every walk's whole leaf, and a vector's worth past the last for the copies that
   fill a partial vector. */
#define TOI_MESH_PACK (TOI_MESH_PACK_WALKS * TOI_MESH_W + VW)

/* The triangles the walks' live tests kept, in the order they were kept: each one's rows,
   its query, its walk and its place j in that walk's leaf (the walk waits at the leaf, so
   w[walk].cur is the leaf). */
typedef struct mesh_pack {
    float tri[9][TOI_MESH_PACK];
    uint32_t query[TOI_MESH_PACK];
    uint8_t walk[TOI_MESH_PACK], j[TOI_MESH_PACK];
    size_t n;
} mesh_pack;

/* Walk k's kept triangles (bits of its leaf w->cur) appended to the pack. */
TOI_VINLINE void mesh_pack_add(mesh_pack *p, const toi_mesh *m, const mesh_walker *w, int k,
                               unsigned bits)
{
    const float *row = toi_mesh_row(m, w->cur.ref, w->cur.count, 0);
    const size_t stride = w->cur.count;
    for (; bits; bits &= bits - 1) {
        const uint32_t j = (uint32_t)__builtin_ctz(bits);
        const size_t at = p->n++;
        const float *src = row + j;
        TOI_UNROLL
        for (int c = 0; c < 9; c++, src += stride)
            p->tri[c][at] = *src;
        p->query[at] = (uint32_t)w->i; /* a kernel gets at most 2^30 queries a call */
        p->walk[at] = (uint8_t)k;
        p->j[at] = (uint8_t)j;
    }
}

/* The pack's lanes [at, at + cnt) (cnt <= VW) through the kernel, their hits offered to their
   walks' best, each walk's count of lanes left to compute (wait) decremented. The lanes past
   cnt are copies of lane at, so every lane computes a real query (masked off). */
TOI_VINLINE void mesh_pack_run(mesh_pack *p, size_t at, size_t cnt, const mesh_batch *Q,
                               mesh_kernel_fn kernel, mesh_walker *w, unsigned *wait)
{
    for (size_t l = cnt; l < VW; l++) {
        for (int c = 0; c < 9; c++)
            p->tri[c][at + l] = p->tri[c][at];
        p->query[at + l] = p->query[at];
    }
    vf Tv[9];
    for (int c = 0; c < 9; c++)
        Tv[c] = vload(p->tri[c] + at);
    vf t;
    const vm hit = kernel(Q, p->query + at, Tv, vlt(lane_ids(), vset((float)cnt)), &t);
    float tt[VW];
    for (unsigned bits = hit_lanes(hit, t, tt); bits; bits &= bits - 1) {
        const unsigned l = (unsigned)__builtin_ctz(bits);
        mesh_walker *x = &w[p->walk[at + l]];
        toi_mesh_offer(Q->m, x->cur.ref, x->cur.count, p->j[at + l], tt[l], &x->b);
    }
    for (size_t l = 0; l < cnt; l++)
        wait[p->walk[at + l]]--;
}

/* Queries [0, n) down the mesh as mesh_walk_batch walks them - the same visits, winners and
   cost - with the leaves' kernel run on packed vectors: a walk at a leaf keeps the triangles
   its live test cannot reject, appends them to the pack and waits; the kernel runs whenever
   the pack holds a whole vector (of any walks' triangles), or on what it holds when every
   walk waits. A walk goes on once all its triangles are computed, its best time then the one
   its leaf would have given it (the offers keep the earliest, the lowest index on ties, in
   any order). So the kernel runs on whole vectors, not on the 3 or 4 lanes a leaf keeps. */
TOI_VINLINE size_t mesh_walk_packed(size_t n, const mesh_batch *Q, int capsule, void *ctxs,
                                    size_t ctx_size, mesh_begin_fn begin, mesh_live_fn live_fn,
                                    mesh_kernel_fn kernel, toi_cost *cost)
{
    const toi_mesh *m = Q->m;
    const int prefetch = m->bytes >= TOI_MESH_PREFETCH_BYTES;
    mesh_walker w[TOI_MESH_PACK_WALKS];
    mesh_pack p;
    unsigned wait[TOI_MESH_PACK_WALKS];
    unsigned ready = 0, held = 0; /* bit k: walk k steps; walk k waits at a leaf */
    size_t next = 0, hits = 0;
    uint64_t nv = 0, np = 0;
    p.n = 0;
    for (int k = 0; k < TOI_MESH_PACK_WALKS; k++) {
        wait[k] = 0;
        ready |= (unsigned)mesh_walk_take(&w[k], (char *)ctxs + k * ctx_size, n, &next, Q,
                                          begin, &hits) << k;
    }
    while (ready | held) {
        for (unsigned bits = ready; bits; bits &= bits - 1) {
            const int k = __builtin_ctz(bits);
            void *ctx = (char *)ctxs + k * ctx_size;
            int go;
            if (w[k].cur.count == TOI_MESH_INNER) {
                go = mesh_walk_node(&w[k], capsule, m, prefetch, &nv);
            } else {
                np += w[k].cur.count;
                const float tb = w[k].b.t < 1.0f ? w[k].b.t : 1.0f;
                const unsigned keep = live_fn(ctx, m, w[k].cur.ref, w[k].cur.count, tb);
                if (keep) {
                    mesh_pack_add(&p, m, &w[k], k, keep);
                    wait[k] = (unsigned)__builtin_popcount(keep);
                    ready &= ~(1u << k);
                    held |= 1u << k;
                    continue;
                }
                go = toi_mesh_pop(w[k].stack, &w[k].sp, w[k].b.t, &w[k].cur);
            }
            if (!go && !mesh_walk_over(&w[k], ctx, n, &next, Q, begin, &hits))
                ready &= ~(1u << k);
        }
        if (p.n < VW && ready)
            continue;
        /* whole vectors, or everything when every walk waits */
        size_t at = 0;
        for (; p.n - at >= VW; at += VW)
            mesh_pack_run(&p, at, VW, Q, kernel, w, wait);
        if (at < p.n && !ready) {
            mesh_pack_run(&p, at, p.n - at, Q, kernel, w, wait);
            at = p.n;
        }
        for (size_t l = at; l < p.n; l++) { /* the lanes left to the front */
            for (int c = 0; c < 9; c++)
                p.tri[c][l - at] = p.tri[c][l];
            p.query[l - at] = p.query[l];
            p.walk[l - at] = p.walk[l];
            p.j[l - at] = p.j[l];
        }
        p.n -= at;
        /* the walks whose triangles are all computed go on from their leaves */
        for (unsigned bits = held; bits; bits &= bits - 1) {
            const int k = __builtin_ctz(bits);
            if (wait[k])
                continue;
            held &= ~(1u << k);
            if (toi_mesh_pop(w[k].stack, &w[k].sp, w[k].b.t, &w[k].cur) ||
                mesh_walk_over(&w[k], (char *)ctxs + k * ctx_size, n, &next, Q, begin, &hits))
                ready |= 1u << k;
        }
    }
    mesh_walk_finish(Q, cost, nv, np);
    return hits;
}

/* Triangles [j, j + VW) of the leaf (ref, cnt), row by row (the leaf block is padded, so whole
   vectors stay in bounds); returns the mask of the lanes that hold one. */
TOI_VINLINE vm mesh_leaf_load(const toi_mesh *m, uint32_t ref, uint32_t cnt, uint32_t j,
                              vf Tv[9])
{
    TOI_UNROLL
    for (int k = 0; k < 9; k++)
        Tv[k] = vload(toi_mesh_row(m, ref, cnt, k) + j);
    return vlt(lane_ids(), vset((float)(cnt - j)));
}

/* Offer the lanes of `hit` (their times t) among triangles [j, j + VW) of the leaf to *b. */
TOI_VINLINE void mesh_leaf_offer(const toi_mesh *m, uint32_t ref, uint32_t cnt, uint32_t j,
                                 vm hit, vf t, toi_mesh_best *b)
{
    float tt[VW];
    for (unsigned bits = hit_lanes(hit, t, tt); bits; bits &= bits - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(bits);
        toi_mesh_offer(m, ref, cnt, j + k, tt[k], b);
    }
}

#endif /* TOI_SIMD_MESH_WALK_H */
