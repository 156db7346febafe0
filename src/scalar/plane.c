/* scalar/plane.c - reference sphere-plane sweep: plain C, one sphere at a time */
#include "scalar.h"

/* Sphere (centre c, displacement v, radius r) against the plane n.x = d: the signed distance
   s(t) = n.c - d + t n.v. In contact when s <= r (the solid side counts as touching);
   approaching when n.v < 0. The first contact with s(0) > r is t = (r - s(0)) / n.v. The exit
   (toi_hits.t_exit) is the time s rises through r: the same expression where n.v > 0 (a hit
   then touches at t = 0), never (+inf) where n.v <= 0. For a displacement so small that n.v
   would underflow (|v|_1 below TOI_EXIT_MIN_V), n.v is taken of v scaled by the power of two
   k that brings |v|_1 to [1, 2), and the time multiplied by k (+inf beyond the float range). */
TOI_SCALAR_INLINE void sweep_plane(float x, float y, float z, float vx, float vy, float vz, float r,
                        const toi_plane *P, int plane_ok, unsigned flags, int full,
                        toi_result *res, float *t_exit)
{
    float s0 = ((P->nx * x + P->ny * y) + P->nz * z) - P->d;
    float sv = (P->nx * vx + P->ny * vy) + P->nz * vz;
    /* x - x is 0 for finite x and NaN otherwise. With a finite plane, s0 and sv are finite
       only if the centre and the displacement are (an infinite or NaN coordinate makes its
       product infinite or NaN, 0 * Inf included); a sum too large for a float is out of range
       and misses as well. */
    float finite = ((s0 - s0) + (sv - sv)) + (r - r);
    if (!plane_ok || !(finite == 0.0f) || !(r >= 0.0f)) {
        toi_scalar_miss(res);
        return;
    }
    float t;
    int overlap = 0;
    if (s0 <= r) {
        if (!(sv < 0.0f) && !(flags & TOI_ALL_OVERLAPS)) {
            toi_scalar_miss(res);
            return;
        }
        t = 0.0f;
        overlap = 1;
    } else {
        t = (r - s0) / sv;
        if (!(sv < 0.0f) || !(t <= 1.0f)) {
            toi_scalar_miss(res);
            return;
        }
    }
    res->t = t;
    if (t_exit)
        *t_exit = toi_scalar_plane_exit(vx, vy, vz, r, P, s0, sv);
    if (!full)
        return;
    float st = s0 + t * sv;
    res->nx = P->nx, res->ny = P->ny, res->nz = P->nz;
    res->px = (x + t * vx) - st * P->nx;
    res->py = (y + t * vy) - st * P->ny;
    res->pz = (z + t * vz) - st * P->nz;
    res->depth = 0.0f;
    if (overlap) {
        float depth = r - s0;
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
}

/* The batch loop, with want_exit a constant in each copy. */
TOI_SCALAR_INLINE size_t plane_loop(size_t n, const toi_spheres *S, const toi_plane *P,
                                    unsigned flags, const toi_hits *out, int want_exit)
{
    int full = toi_wants_full(out);
    int plane_ok = toi_plane_ok(P);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        toi_result r;
        float te = TOI_NO_HIT;
        toi_scalar_miss(&r);
        sweep_plane(S->x[i], S->y[i], S->z[i], S->vx[i], S->vy[i], S->vz[i], S->r[i], P,
                    plane_ok, flags, full, &r, want_exit ? &te : NULL);
        hits += r.t != TOI_NO_HIT;
        toi_scalar_store(out, i, &r, full);
        if (want_exit)
            out->t_exit[i] = te;
    }
    return hits;
}

size_t toi_scalar_sweep_spheres_plane(size_t n, const toi_spheres *S, const toi_plane *P,
                                  unsigned flags, const toi_hits *out)
{
    return out->t_exit ? plane_loop(n, S, P, flags, out, 1) : plane_loop(n, S, P, flags, out, 0);
}
