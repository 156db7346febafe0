/* scalar/spheres.c - reference sphere-sphere sweep: plain C, one pair at a time */
#include "scalar.h"

/* Sphere A (centre a, displacement va, radius ra) against sphere B over t in [0,1].
   Relative motion turns it into a ray l + t*v against a sphere of radius R = ra + rb at the
   origin, where l = a - b, v = va - vb. With a = v.v, b = l.v, c = l.l - R^2 the contact
   times solve a t^2 + 2 b t + c = 0. The first root is c / q with q = sqrt(disc) - b (the
   numerically stable form: b < 0 whenever the spheres approach, so nothing cancels) and
   disc = b^2 - a c computed as a R^2 - |l x v|^2 (Lagrange's identity), which does not cancel
   when the path passes close to B's centre. Everything is first scaled by a power of two so
   the relative geometry has size ~1: exact, and no square or fourth power over- or underflows.
   The SIMD kernels (src/simd/spheres.h) perform exactly these operations in this order. */

/* The larger root of a t^2 + 2 b t + c = 0 (l, v, RR, c in scaled units), in the stable form
   for each sign of b: (sqrt(disc) - b) / a when b <= 0, else c / (-b - sqrt(disc)); neither
   adds terms of opposite sign. disc = a R^2 - |l x v|^2 as for the first root; it is >= 0 in
   contact, and a rounding below 0 counts as 0. a > 0 when b <= 0 here (the caller sees to it),
   and -b - sqrt(disc) < 0 when b > 0. */
TOI_SCALAR_INLINE float larger_root(float lx, float ly, float lz, float vx, float vy, float vz,
                                    float RR, float c)
{
    float a = (vx * vx + vy * vy) + vz * vz;
    float b = (lx * vx + ly * vy) + lz * vz;
    float cx = ly * vz - lz * vy, cy = lz * vx - lx * vz, cz = lx * vy - ly * vx;
    float disc = a * RR - ((cx * cx + cy * cy) + cz * cz);
    float sd = disc > 0.0f ? sqrtf(disc) : 0.0f;
    if (b <= 0.0f)
        return (sd - b) / a;
    return c / (-b - sd);
}

/* Exit time of a pair in contact on [t, ...] (toi.h, toi_hits.t_exit): the larger root, at
   least t. When v.v is below TOI_EXIT_MIN_A its squares would lose precision to underflow:
   v is then scaled on its own by the power of two k that brings |v|_1 to [1, 2), which
   divides every root by k exactly, and the root found is multiplied back (overflowing to
   +inf when the exit lies beyond the float range). No motion at all never separates. */
TOI_SCALAR_INLINE float sphere_exit(float lx, float ly, float lz, float vx, float vy, float vz,
                                    float RR, float c, float t)
{
    float a = (vx * vx + vy * vy) + vz * vz;
    float te;
    if (a >= TOI_EXIT_MIN_A) {
        te = larger_root(lx, ly, lz, vx, vy, vz, RR, c);
    } else {
        float k = toi_scalar_pow2_scale((fabsf(vx) + fabsf(vy)) + fabsf(vz));
        vx = vx * k, vy = vy * k, vz = vz * k;
        float a2 = (vx * vx + vy * vy) + vz * vz;
        te = a2 == 0.0f ? INFINITY : larger_root(lx, ly, lz, vx, vy, vz, RR, c) * k;
    }
    return te > t ? te : t; /* +0, not -0, for a pair touching at 0 only; never before t */
}

TOI_SCALAR_INLINE int sweep_pair(float ax, float ay, float az, float avx, float avy, float avz, float ar,
                      float bx, float by, float bz, float bvx, float bvy, float bvz, float br,
                      unsigned flags, int full, toi_result *res, float *t_exit)
{
    float lx = ax - bx, ly = ay - by, lz = az - bz;
    float vx = avx - bvx, vy = avy - bvy, vz = avz - bvz;
    float R = ar + br;

    /* Size of the relative geometry; NaN or Inf anywhere makes it NaN or Inf. */
    float size = ((fabsf(lx) + fabsf(ly)) + fabsf(lz)) + ((fabsf(vx) + fabsf(vy)) + fabsf(vz));
    size = size + R;
    if (!(size < TOI_MAX_SUM) || !(ar >= 0.0f) || !(br >= 0.0f))
        return 0;
    float s = toi_scalar_pow2_scale(size);
    lx = lx * s, ly = ly * s, lz = lz * s;
    vx = vx * s, vy = vy * s, vz = vz * s;
    R = R * s;
    if (TOI_SCALAR_SUBNORMAL(size)) { /* a subnormal size: on to [1, 2) (scalar.h) */
        float s2 = toi_scalar_pow2_scale_sub(size, s);
        lx = lx * s2, ly = ly * s2, lz = lz * s2;
        vx = vx * s2, vy = vy * s2, vz = vz * s2;
        R = R * s2;
    }

    float b = (lx * vx + ly * vy) + lz * vz;
    /* Not approaching (f'(0) >= 0): only a pair already touching can hit, and only when every
       overlap is wanted. Deciding this first skips the rest for about half of all pairs. */
    int approach = b < 0.0f;
    if (!approach && !(flags & TOI_ALL_OVERLAPS))
        return 0;
    float ll = (lx * lx + ly * ly) + lz * lz;
    float RR = R * R;
    float c = ll - RR;

    float t;
    int overlap = 0;
    if (c <= 0.0f) {
        t = 0.0f; /* touching at t = 0, approaching or every overlap wanted */
        overlap = 1;
    } else {
        if (!approach)
            return 0;
        float a = (vx * vx + vy * vy) + vz * vz;
        float cx = ly * vz - lz * vy, cy = lz * vx - lx * vz, cz = lx * vy - ly * vx;
        float disc = a * RR - ((cx * cx + cy * cy) + cz * cz);
        if (!(disc >= 0.0f))
            return 0;
        float q = sqrtf(disc) - b;
        t = c / q;
        if (!(t <= 1.0f))
            return 0;
    }
    res->t = t;
    if (t_exit)
        *t_exit = sphere_exit(lx, ly, lz, vx, vy, vz, RR, c, t);
    if (!full)
        return 1;

    /* Normal: from B's centre toward A's at time t (scaled units). */
    float dx = lx + t * vx, dy = ly + t * vy, dz = lz + t * vz;
    float dd = (dx * dx + dy * dy) + dz * dz;
    float len = sqrtf(dd);
    float inv = 1.0f / len;
    if (dd >= TOI_MIN_DIR2) {
        res->nx = dx * inv, res->ny = dy * inv, res->nz = dz * inv;
    } else {
        res->nx = TOI_FALLBACK_NX, res->ny = TOI_FALLBACK_NY, res->nz = TOI_FALLBACK_NZ;
    }
    /* Point: on B's surface toward A, in world units. */
    res->px = (bx + t * bvx) + res->nx * br;
    res->py = (by + t * bvy) + res->ny * br;
    res->pz = (bz + t * bvz) + res->nz * br;
    /* Depth: R - |l| back in world units, never negative. */
    res->depth = 0.0f;
    if (overlap) {
        float depth = toi_scalar_unscale(R - len, size);
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
    return 1;
}

/* The batch loops, with want_exit a constant in each copy (a test per query cost 5 %). */
TOI_SCALAR_INLINE size_t spheres_loop(size_t n, const toi_spheres *A, const toi_spheres *B,
                                      unsigned flags, const toi_hits *out, int want_exit)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        toi_result r;
        float te = TOI_NO_HIT;
        int hit = sweep_pair(A->x[i], A->y[i], A->z[i], A->vx[i], A->vy[i], A->vz[i], A->r[i],
                             B->x[i], B->y[i], B->z[i], B->vx[i], B->vy[i], B->vz[i], B->r[i],
                             flags, full, &r, want_exit ? &te : NULL);
        hits += (size_t)hit;
        toi_scalar_store(out, i, hit ? &r : &toi_scalar_no_hit, full);
        if (want_exit)
            out->t_exit[i] = hit ? te : TOI_NO_HIT;
    }
    return hits;
}

size_t toi_scalar_sweep_spheres(size_t n, const toi_spheres *A, const toi_spheres *B,
                            unsigned flags, const toi_hits *out)
{
    return out->t_exit ? spheres_loop(n, A, B, flags, out, 1)
                       : spheres_loop(n, A, B, flags, out, 0);
}

TOI_SCALAR_INLINE size_t pairs_loop(size_t n, const uint32_t *ia, const uint32_t *ib,
                                    const toi_spheres *S, unsigned flags, const toi_hits *out,
                                    int want_exit)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = ia[k], j = ib[k];
        toi_result r;
        float te = TOI_NO_HIT;
        int hit = sweep_pair(S->x[i], S->y[i], S->z[i], S->vx[i], S->vy[i], S->vz[i], S->r[i],
                             S->x[j], S->y[j], S->z[j], S->vx[j], S->vy[j], S->vz[j], S->r[j],
                             flags, full, &r, want_exit ? &te : NULL);
        hits += (size_t)hit;
        toi_scalar_store(out, k, hit ? &r : &toi_scalar_no_hit, full);
        if (want_exit)
            out->t_exit[k] = hit ? te : TOI_NO_HIT;
    }
    return hits;
}

size_t toi_scalar_sweep_sphere_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                 const toi_spheres *S, unsigned flags, const toi_hits *out)
{
    return out->t_exit ? pairs_loop(n, ia, ib, S, flags, out, 1)
                       : pairs_loop(n, ia, ib, S, flags, out, 0);
}
