/* scalar/triangles.c - reference sphere-triangle sweeps (pairs, pair lists, sets): plain C,
   one query at a time; the sweep itself is scalar/tri_sweep.h */
#include "tri_sweep.h"

TOI_SCALAR_INLINE size_t one_pair(sphere S, triangle T, unsigned flags, int want,
                                  const toi_hits *out, size_t k)
{
    toi_result r;
    uint8_t feat = TOI_FEATURE_NONE;
    int full = want == 2;
    toi_scalar_miss(&r);
    sweep_triangle(S, T, flags, want, INFINITY, &r, &feat);
    toi_scalar_store(out, k, &r, full);
    if (out->feature)
        out->feature[k] = feat;
    return r.t != TOI_NO_HIT;
}

size_t toi_scalar_sweep_spheres_triangles(size_t n, const toi_spheres *s,
                                          const toi_triangles *tri, unsigned flags,
                                          const toi_hits *out)
{
    int want = tri_want(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        hits += one_pair(load_sphere(s, i), load_triangle(tri, i), flags, want, out, i);
    }
    return hits;
}

size_t toi_scalar_sweep_sphere_triangle_pairs(size_t n, const uint32_t *is, const uint32_t *it,
                                              const toi_spheres *s, const toi_triangles *tri,
                                              unsigned flags, const toi_hits *out)
{
    int want = tri_want(out);
    size_t hits = 0;
    for (size_t k = 0; k < n; k++) {
        hits += one_pair(load_sphere(s, is[k]), load_triangle(tri, it[k]), flags, want, out, k);
    }
    return hits;
}

/* The plain loop: the first triangle with a strictly earlier t wins; then the winner's
   full result (the same function, so the same t). Each triangle is asked only for a hit
   before the best so far (tmax = best: it may skip a triangle that cannot beat it), and the
   scan stops at a hit at t = 0: no t is below +0 (every candidate time is a quotient of two
   numbers of the same sign, or 0), so no later triangle could replace it. */
size_t toi_scalar_sweep_spheres_triangle_set(size_t n, const toi_spheres *s, size_t ntris,
                                             const toi_triangles *tri, unsigned flags,
                                             const toi_hits *out)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        sphere S = load_sphere(s, i);
        float best = TOI_NO_HIT;
        uint32_t win = UINT32_MAX;
        for (size_t j = 0; j < ntris && best != 0.0f; j++) {
            toi_result r;
            uint8_t feat;
            r.t = TOI_NO_HIT;
            sweep_triangle(S, load_triangle(tri, j), flags, 0, best, &r, &feat);
            if (r.t < best) {
                best = r.t;
                win = (uint32_t)j;
            }
        }
        const triangle none = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        triangle T = win != UINT32_MAX ? load_triangle(tri, win) : none;
        hits += store_winner(S, T, win, flags, out, i);
    }
    return hits;
}
