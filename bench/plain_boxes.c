/* plain_boxes.c - the baseline issue 11 names for the linear box sweep: "a plain SoA 15-axis
   sweep, auto-vectorised". One loop over the pairs that the compiler vectorises (this file is
   built with -O3; on x86-64 the loop is compiled for AVX2, and the benchmark calls it only
   where the CPU has AVX2): both rotation matrices from the quaternions, C = A^T B with a fixed
   1e-6 added to |C| (the textbook's guard for parallel edges), and per axis the interval
   |d + t w| <= r with one division. What it does not do, and toi does: no exact rescale (large
   or tiny coordinates lose it), an absolute epsilon instead of error bounds, no check of the
   input, every pair overlapping at t = 0 a hit at 0 (toi's TOI_ALL_OVERLAPS; without the flag
   toi misses a pair that overlaps and separates), no normal, point, depth or exit time.
   Results are floats in [0, 1], 2 for a miss. */
#include "peers.h"

static inline void plain_axes(float w, float x, float y, float z, float m[3][3])
{
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y + w * z);
    m[0][2] = 2 * (x * z - w * y);
    m[1][0] = 2 * (x * y - w * z), m[1][1] = 1 - 2 * (x * x + z * z);
    m[1][2] = 2 * (y * z + w * x);
    m[2][0] = 2 * (x * z + w * y), m[2][1] = 2 * (y * z - w * x);
    m[2][2] = 1 - 2 * (x * x + y * y);
}

/* Axis interval [(-r - d) / w, (r - d) / w] (ordered) met with [*te, *tx]; w = 0 gives
   +-inf, the whole line or nothing. */
static inline void plain_axis(float d, float w, float r, float *te, float *tx)
{
    float inv = 1.0f / w;
    float t0 = (-r - d) * inv, t1 = (r - d) * inv;
    float lo = t0 < t1 ? t0 : t1, hi = t0 < t1 ? t1 : t0;
    *te = lo > *te ? lo : *te;
    *tx = hi < *tx ? hi : *tx;
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
#endif
size_t plain_boxes(size_t n, const toi_boxes *restrict a, const toi_boxes *restrict b,
                   float *restrict t)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        float A[3][3], B[3][3], Ta[3], Va[3], C[3][3], AC[3][3];
        plain_axes(a->qw[i], a->qx[i], a->qy[i], a->qz[i], A);
        plain_axes(b->qw[i], b->qx[i], b->qy[i], b->qz[i], B);
        const float T[3] = {b->x[i] - a->x[i], b->y[i] - a->y[i], b->z[i] - a->z[i]};
        const float V[3] = {b->vx[i] - a->vx[i], b->vy[i] - a->vy[i], b->vz[i] - a->vz[i]};
        const float ha[3] = {a->hx[i], a->hy[i], a->hz[i]};
        const float hb[3] = {b->hx[i], b->hy[i], b->hz[i]};
        _Pragma("GCC unroll 3") for (int k = 0; k < 3; k++) {
            Ta[k] = A[k][0] * T[0] + A[k][1] * T[1] + A[k][2] * T[2];
            Va[k] = A[k][0] * V[0] + A[k][1] * V[1] + A[k][2] * V[2];
            _Pragma("GCC unroll 3") for (int j = 0; j < 3; j++) {
                C[k][j] = A[k][0] * B[j][0] + A[k][1] * B[j][1] + A[k][2] * B[j][2];
                AC[k][j] = (C[k][j] < 0 ? -C[k][j] : C[k][j]) + 1e-6f;
            }
        }
        float te = -1e30f, tx = 1e30f;
        _Pragma("GCC unroll 3") for (int k = 0; k < 3; k++) /* A's faces */
            plain_axis(Ta[k], Va[k],
                       ha[k] + AC[k][0] * hb[0] + AC[k][1] * hb[1] + AC[k][2] * hb[2], &te,
                       &tx);
        _Pragma("GCC unroll 3") for (int j = 0; j < 3; j++) /* B's faces */
            plain_axis(C[0][j] * Ta[0] + C[1][j] * Ta[1] + C[2][j] * Ta[2],
                       C[0][j] * Va[0] + C[1][j] * Va[1] + C[2][j] * Va[2],
                       AC[0][j] * ha[0] + AC[1][j] * ha[1] + AC[2][j] * ha[2] + hb[j], &te,
                       &tx);
        _Pragma("GCC unroll 3") for (int k = 0; k < 3; k++) { /* a_k x b_j */
            const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            _Pragma("GCC unroll 3") for (int j = 0; j < 3; j++) {
                const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
                plain_axis(Ta[k2] * C[k1][j] - Ta[k1] * C[k2][j],
                           Va[k2] * C[k1][j] - Va[k1] * C[k2][j],
                           ha[k1] * AC[k2][j] + ha[k2] * AC[k1][j] + hb[j1] * AC[k][j2] +
                               hb[j2] * AC[k][j1],
                           &te, &tx);
            }
        }
        const int hit = (te <= tx) & (te <= 1.0f) & (tx >= 0.0f);
        t[i] = hit ? (te > 0.0f ? te : 0.0f) : 2.0f;
        hits += (size_t)hit;
    }
    return hits;
}
