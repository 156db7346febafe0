/* fuzzcheck.c - decode a fuzz input into a call of one query family and check it on every
   backend. Input layout (floats are any 4 bytes, so NaN, Inf, denormals and every magnitude
   occur):
     byte 0  flags: bit 0 TOI_ALL_OVERLAPS, bit 1 TOI_CULL_BACKFACES; bit 6 adds an undefined
             flag bit (TOI_EINVAL)
     byte 1  outputs requested besides t: bit k-1 output k (nx ny nz px py pz depth),
             bit 7 index and feature; for rows updating arrays in place (toi_respond): bit g
             passes the optional input group g (velocity, depth), else those are NULL
     byte 2  members of each set (0..255)
     byte 3  bit 0: index bytes may exceed a set (TOI_EINVAL when one does); bit 1: per-call
             coefficients ('e': restitution, friction) taken as they are, else folded into
             [0, 1]; bit 2: the exit time t_exit requested (outmask bit 8 here)
     then    the per-call floats, then each set's arrays, then per query: its floats and one
             byte per index array; n = what the remaining bytes hold, at most T_FUZZ_MAXN. */
#include "fuzzcheck.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define HDR 4
#define SENT 0xA5u

typedef struct fbuf {
    float q[T_MAXARR][T_FUZZ_MAXN];
    uint32_t idx[2][T_FUZZ_MAXN];
    float set[2][T_MAXARR][256];
} fbuf;

typedef struct fout {
    float f[8][T_FUZZ_MAXN + 1];
    uint32_t index[T_FUZZ_MAXN + 1];
    uint8_t feature[T_FUZZ_MAXN + 1];
    float t_exit[T_FUZZ_MAXN + 1];
} fout;

static size_t per_query(const t_family *f)
{
    return (size_t)t_nq(f) * 4 + (size_t)f->nidx;
}

static float take_float(const uint8_t **p)
{
    float v;
    memcpy(&v, *p, 4);
    *p += 4;
    return v;
}

static const char *fail(char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static const char *fail(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return msg;
}

static toi_hits hits_for(fout *o, unsigned outmask)
{
    toi_hits h = {o->f[0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    float *restrict *f[7] = {&h.nx, &h.ny, &h.nz, &h.px, &h.py, &h.pz, &h.depth};
    for (int k = 0; k < 7; k++)
        if (outmask >> k & 1)
            *f[k] = o->f[k + 1];
    if (outmask & 0x80) {
        h.index = o->index;
        h.feature = o->feature;
    }
    if (outmask & 0x100)
        h.t_exit = o->t_exit;
    return h;
}

static uint32_t fbits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static const char *const onames[8] = {"t", "nx", "ny", "nz", "px", "py", "pz", "depth"};

/* Untouched (the sentinel) where not requested or past n; else equal to the reference. */
static const char *compare(const t_family *f, const fout *ref, const fout *got, size_t n,
                           unsigned outmask, int written, const char *name, char *msg,
                           size_t len)
{
    for (int k = 0; k < 8; k++)
        for (size_t i = 0; i <= n; i++) {
            int req = written && i < n && (k == 0 || (outmask >> (k - 1) & 1));
            uint32_t g = fbits(got->f[k][i]);
            uint32_t want = req ? fbits(ref->f[k][i]) : SENT * 0x01010101u;
            if (g != want)
                return fail(msg, len, "%s: %s[%zu] = 0x%08x, want 0x%08x%s", name, onames[k],
                            i, g, want, req ? " (the scalar reference's)" : " (untouched)");
        }
    for (size_t i = 0; i <= n; i++) {
        int req = written && i < n && (outmask & 0x80);
        uint32_t wi = req && f->writes_index ? ref->index[i] : SENT * 0x01010101u;
        uint8_t wf = req && f->writes_feature ? ref->feature[i] : (uint8_t)SENT;
        if (got->index[i] != wi)
            return fail(msg, len, "%s: index[%zu] = %u, want %u", name, i, got->index[i], wi);
        if (got->feature[i] != wf)
            return fail(msg, len, "%s: feature[%zu] = %u, want %u", name, i, got->feature[i],
                        wf);
        int reqx = written && i < n && (outmask & 0x100) && f->writes_exit;
        uint32_t wx = reqx ? fbits(ref->t_exit[i]) : SENT * 0x01010101u;
        if (fbits(got->t_exit[i]) != wx)
            return fail(msg, len, "%s: t_exit[%zu] = 0x%08x, want 0x%08x%s", name, i,
                        fbits(got->t_exit[i]), wx,
                        reqx ? " (the scalar reference's)" : " (untouched)");
    }
    return NULL;
}

/* The contract's invariants on the reference's results. */
static const char *invariants(const t_family *f, const t_args *a, const fout *o, size_t n,
                              unsigned outmask, ptrdiff_t ret, char *msg, size_t len)
{
    size_t hits = 0;
    int in_contract = !f->precondition || f->precondition(a);
    for (size_t i = 0; i < n; i++) {
        float t = o->f[0][i];
        int hit = t != TOI_NO_HIT;
        hits += hit;
        if (hit && !(t >= 0.0f && t <= 1.0f))
            return fail(msg, len, "query %zu: t = %.9g (0x%08x) is neither in [0,1] nor "
                        "TOI_NO_HIT", i, t, fbits(t));
        for (int k = 1; k < 8; k++) {
            if (!(outmask >> (k - 1) & 1))
                continue;
            float v = o->f[k][i];
            if (isnan(v) && in_contract)
                return fail(msg, len, "query %zu: %s is NaN (t = %.9g)", i, onames[k], t);
            if (!hit && v != 0.0f)
                return fail(msg, len, "query %zu: miss but %s = %.9g", i, onames[k], v);
        }
        if (hit && (outmask & 7) == 7) {
            double nx = o->f[1][i], ny = o->f[2][i], nz = o->f[3][i];
            double nn = nx * nx + ny * ny + nz * nz;
            if (f->normal_param >= 0) {
                const float *pn = &a->param[f->normal_param];
                if (fbits(o->f[1][i]) != fbits(pn[0]) || fbits(o->f[2][i]) != fbits(pn[1]) ||
                    fbits(o->f[3][i]) != fbits(pn[2]))
                    return fail(msg, len, "query %zu: normal is not the plane's", i);
            } else if (in_contract && !(fabs(nn - 1.0) <= 1e-5)) {
                return fail(msg, len, "query %zu: |normal|^2 = %.9g (%.9g %.9g %.9g)", i, nn,
                            nx, ny, nz);
            }
        }
        if ((outmask & 0x100) && f->writes_exit) {
            float te = o->t_exit[i];
            if (hit ? !(te >= t) : te != TOI_NO_HIT)
                return fail(msg, len, "query %zu: t_exit %.9g at t = %.9g", i, te, t);
        }
        if (hit && (outmask & 0x40)) {
            float d = o->f[7][i];
            if (!(d >= 0.0f) || (t > 0.0f && d != 0.0f))
                return fail(msg, len, "query %zu: depth %.9g at t = %.9g", i, d, t);
        }
        if (outmask & 0x80) {
            if (f->writes_index) {
                size_t m = a->nset[f->index_set];
                uint32_t ix = o->index[i];
                if (hit ? !(ix < m) : ix != UINT32_MAX)
                    return fail(msg, len, "query %zu: index %u (set of %zu, %s)", i, ix, m,
                                hit ? "hit" : "miss");
            }
            if (f->writes_feature &&
                (hit ? !(o->feature[i] < f->feature_limit) : o->feature[i] != TOI_FEATURE_NONE))
                return fail(msg, len, "query %zu: feature %u (%s)", i, o->feature[i],
                            hit ? "hit" : "miss");
        }
    }
    if (ret != (ptrdiff_t)hits)
        return fail(msg, len, "returned %td but %zu queries hit", ret, hits);
    return NULL;
}

/* ---- rows that update arrays in place (toi_respond) ---- */

static float fold_unit(float v)
{
    v = fabsf(v);
    return v <= 1.0f ? v : (float)(fbits(v) & 0x7fffffu) * 0x1p-23f;
}

/* toi_respond's contract on the reference's results: a sphere is left entirely unchanged or
   all its results are finite; a changed miss (t outside [0, 1]) moved by its displacement,
   which is then 0, and kept its velocity; every changed hit counts, and only hits count. */
static const char *respond_invariants(const t_args *a, float (*io)[T_FUZZ_MAXN + 1], size_t n,
                                      ptrdiff_t ret, char *msg, size_t len)
{
    static const char *const names[9] = {"x", "y", "z", "vx", "vy", "vz", "ux", "uy", "uz"};
    size_t in_range = 0, changed_hits = 0;
    int vel = a->q[6] != NULL;
    for (size_t i = 0; i < n; i++) {
        float t = a->q[9][i];
        int hit = t >= 0.0f && t <= 1.0f, changed = 0;
        in_range += (size_t)hit;
        for (int k = 0; k < (vel ? 9 : 6); k++)
            changed |= fbits(io[k][i]) != fbits(a->q[k][i]);
        if (!changed)
            continue;
        for (int k = 0; k < (vel ? 9 : 6); k++)
            if (!isfinite(io[k][i]))
                return fail(msg, len, "sphere %zu: %s = %.9g, not finite, yet the sphere was "
                            "updated", i, names[k], io[k][i]);
        if (hit) {
            changed_hits++;
            continue;
        }
        for (int k = 0; k < 3; k++) {
            float want = a->q[k][i] + a->q[k + 3][i];
            if (fbits(io[k][i]) != fbits(want) || io[k + 3][i] != 0.0f)
                return fail(msg, len, "sphere %zu (miss, t = %.9g): %s = %.9g, %s = %.9g", i,
                            t, names[k], io[k][i], names[k + 3], io[k + 3][i]);
            if (vel && fbits(io[k + 6][i]) != fbits(a->q[k + 6][i]))
                return fail(msg, len, "sphere %zu (miss): %s changed", i, names[k + 6]);
        }
    }
    if (ret < (ptrdiff_t)changed_hits || ret > (ptrdiff_t)in_range)
        return fail(msg, len, "returned %td: %zu hits were updated, %zu have t in [0, 1]", ret,
                    changed_hits, in_range);
    return NULL;
}

static const char *fuzz_inout(const t_family *f, t_args *a, size_t n, unsigned outmask,
                              const toi_kernels *const *tables, int nt, char *msg,
                              size_t msglen)
{
    static float io[2][T_MAXARR][T_FUZZ_MAXN + 1];
    for (int g = 0; g < 2; g++)
        if (!(outmask >> g & 1))
            for (int k = 0; k < t_nq(f); k++)
                if (f->optional[g] >> k & 1)
                    a->q[k] = NULL;
    int invalid = f->invalid && f->invalid(a);
    ptrdiff_t want_ret = 0;
    for (int b = 0; b < nt; b++) {
        float(*o)[T_FUZZ_MAXN + 1] = io[b ? 1 : 0];
        memset(o, SENT, sizeof io[0]);
        float *ptr[T_MAXARR];
        for (int k = 0; k < f->inout; k++)
            ptr[k] = o[k];
        ptrdiff_t r = t_call_io(f, tables[b], n, a, 0, NULL, ptr);
        const char *name = tables[b]->name;
        if (invalid || n == 0) {
            ptrdiff_t want = invalid ? TOI_EINVAL : 0;
            if (r != want)
                return fail(msg, msglen, "%s: returned %td for a call that must return %td",
                            name, r, want);
        }
        for (int k = 0; k < f->inout; k++)
            for (size_t i = 0; i <= n; i++) {
                uint32_t g = fbits(o[k][i]), want;
                if (i == n || !a->q[k])
                    want = SENT * 0x01010101u;
                else if (invalid || b == 0)
                    want = fbits(a->q[k][i]); /* the input copy, or rewritten by the call */
                else
                    want = fbits(io[0][k][i]);
                if (b == 0 && !invalid && i < n && a->q[k])
                    continue; /* the reference's own results: checked below */
                if (g != want)
                    return fail(msg, msglen, "%s: array %d [%zu] = 0x%08x, want 0x%08x%s",
                                name, k, i, g, want,
                                i == n || !a->q[k] ? " (untouched)"
                                : invalid          ? " (unchanged: invalid call)"
                                                   : " (the scalar reference's)");
            }
        if (invalid || n == 0)
            continue;
        if (b == 0) {
            const char *e = respond_invariants(a, o, n, r, msg, msglen);
            if (e)
                return e;
            want_ret = r;
        } else if (r != want_ret) {
            return fail(msg, msglen, "%s: returned %td, scalar %td", name, r, want_ret);
        }
    }
    return NULL;
}

const char *t_fuzz_one(const t_family *f, const uint8_t *data, size_t size, char *msg,
                       size_t msglen)
{
    static fbuf in;
    static fout ref, got;
    if (size < HDR)
        return NULL;
    unsigned flags = ((data[0] & 1) ? TOI_ALL_OVERLAPS : 0) |
                     ((data[0] & 2) ? TOI_CULL_BACKFACES : 0);
    int bad_flag = (data[0] >> 6) & 1 && !f->inout;
    if (bad_flag)
        flags |= 1u << (8 + (data[0] >> 1 & 7));
    unsigned outmask = data[1] | ((data[3] & 4) ? 0x100u : 0u);
    size_t m = data[2];
    int oob = data[3] & 1;
    const uint8_t *p = data + HDR, *end = data + size;

    t_args a;
    memset(&a, 0, sizeof a);
    size_t need = (size_t)t_nparam(f) * 4;
    for (int s = 0; s < f->nsets; s++)
        need += m * (size_t)t_nset_arrays(f, s) * 4;
    if ((size_t)(end - p) < need)
        return NULL;
    for (int k = 0; k < t_nparam(f); k++) {
        a.param[k] = take_float(&p);
        if (f->pkind[k] == 'e' && !(data[3] & 2))
            a.param[k] = fold_unit(a.param[k]);
    }
    for (int s = 0; s < f->nsets; s++) {
        a.nset[s] = m;
        for (int k = 0; k < t_nset_arrays(f, s); k++) {
            for (size_t i = 0; i < m; i++)
                in.set[s][k][i] = take_float(&p);
            a.set[s][k] = in.set[s][k];
        }
    }
    size_t n = (size_t)(end - p) / per_query(f);
    if (n > T_FUZZ_MAXN)
        n = T_FUZZ_MAXN;
    int bad_index = 0;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < t_nq(f); k++)
            in.q[k][i] = take_float(&p);
        for (int k = 0; k < f->nidx; k++) {
            size_t lim = a.nset[f->idx_set[k]];
            uint32_t v = *p++;
            v = oob ? v : lim ? v % (uint32_t)lim : v;
            bad_index |= v >= lim;
            in.idx[k][i] = v;
        }
    }
    for (int k = 0; k < t_nq(f); k++)
        a.q[k] = in.q[k];
    for (int k = 0; k < f->nidx; k++)
        a.idx[k] = in.idx[k];

    const toi_kernels *tables[8];
    int nt = t_kernel_tables(tables, 8);
    if (f->inout)
        return fuzz_inout(f, &a, n, outmask, tables, nt, msg, msglen);
    int invalid = bad_flag || (n > 0 && bad_index);
    ptrdiff_t want_ret = 0;
    for (int b = 0; b < nt; b++) {
        fout *o = b == 0 ? &ref : &got;
        memset(o, SENT, sizeof *o);
        toi_hits h = hits_for(o, outmask);
        ptrdiff_t r = f->call(tables[b], n, &a, flags, &h);
        const char *name = tables[b]->name;
        if (invalid || n == 0) {
            ptrdiff_t want = invalid ? TOI_EINVAL : 0;
            if (r != want)
                return fail(msg, msglen, "%s: returned %td for a call that must return %td",
                            name, r, want);
            const char *e = compare(f, &ref, o, n, outmask, 0, name, msg, msglen);
            if (e)
                return e;
            continue;
        }
        if (b == 0) {
            const char *e = invariants(f, &a, o, n, outmask, r, msg, msglen);
            if (e)
                return e;
            e = compare(f, o, o, n, outmask, 1, name, msg, msglen); /* untouched past n */
            if (e)
                return e;
            want_ret = r;
            continue;
        }
        if (r != want_ret)
            return fail(msg, msglen, "%s: returned %td, scalar %td", name, r, want_ret);
        const char *e = compare(f, &ref, o, n, outmask, 1, name, msg, msglen);
        if (e)
            return e;
    }
    /* a row that must answer what another does on the same arguments (the mesh query: the
       set query), checked on the scalar reference */
    const t_family *eq = f->equals ? t_family_named(f->equals) : NULL;
    if (eq && !invalid && n > 0) {
        memset(&got, SENT, sizeof got);
        toi_hits h = hits_for(&got, outmask);
        ptrdiff_t r = eq->call(tables[0], n, &a, flags, &h);
        if (r != want_ret)
            return fail(msg, msglen, "%s returned %td, %s %td", f->name, want_ret, eq->name, r);
        char what[64];
        snprintf(what, sizeof what, "%s against %s", f->name, eq->name);
        const char *e = compare(f, &got, &ref, n, outmask, 1, what, msg, msglen);
        if (e)
            return e;
    }
    return NULL;
}

size_t t_fuzz_encode(const t_family *f, const t_args *a, size_t n, unsigned flags,
                     unsigned outmask, uint8_t *buf, size_t cap)
{
    size_t m = f->nsets ? a->nset[0] : 0, len = HDR;
    size_t need = HDR + (size_t)t_nparam(f) * 4 + n * per_query(f);
    for (int s = 0; s < f->nsets; s++)
        need += m * (size_t)t_nset_arrays(f, s) * 4;
    if (need > cap || n > T_FUZZ_MAXN || m > 255)
        return 0;
    buf[0] = (uint8_t)(((flags & TOI_ALL_OVERLAPS) ? 1 : 0) |
                       ((flags & TOI_CULL_BACKFACES) ? 2 : 0));
    buf[1] = (uint8_t)outmask; /* bit 8 (t_exit) goes to byte 3 */
    buf[2] = (uint8_t)m;
    buf[3] = 0;
    for (int k = 0; k < t_nparam(f); k++)
        if (f->pkind[k] == 'e' && fold_unit(a->param[k]) != a->param[k])
            buf[3] = 2; /* as they are: an invalid call */
    if (outmask & 0x100)
        buf[3] |= 4;
    for (int k = 0; k < t_nparam(f); k++, len += 4)
        memcpy(buf + len, &a->param[k], 4);
    for (int s = 0; s < f->nsets; s++)
        for (int k = 0; k < t_nset_arrays(f, s); k++)
            for (size_t i = 0; i < m; i++, len += 4)
                memcpy(buf + len, &a->set[s][k][i], 4);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < t_nq(f); k++, len += 4)
            memcpy(buf + len, &a->q[k][i], 4);
        for (int k = 0; k < f->nidx; k++)
            buf[len++] = (uint8_t)a->idx[k][i];
    }
    return len;
}
