/* sse/vec.h - the vector layer for SSE4.1: 4 float lanes in an __m128 */
#ifndef TOI_SSE_VEC_H
#define TOI_SSE_VEC_H

#if !defined(__SSE4_1__)
#error "src/sse is built with -msse4.1"
#endif

#include <smmintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#define TOI_ISA sse
#define VW 4

typedef __m128 vf;   /* 4 floats */
typedef __m128 vm;   /* 4 lane masks: all bits set (true) or clear (false) */
typedef __m128i vu;  /* 4 uint32 */

#define TOI_VINLINE TOI_INLINE

/* Every kernel returns through this (the AVX2 layer clears the YMM upper halves there). */
TOI_VINLINE size_t vdone(size_t r) { return r; }

TOI_VINLINE vf vload(const float *p) { return _mm_loadu_ps(p); }
TOI_VINLINE void vstore(float *p, vf a) { _mm_storeu_ps(p, a); }
TOI_VINLINE vf vset(float x) { return _mm_set1_ps(x); }
TOI_VINLINE vf vzero(void) { return _mm_setzero_ps(); }

TOI_VINLINE vf vadd(vf a, vf b) { return _mm_add_ps(a, b); }
TOI_VINLINE vf vsub(vf a, vf b) { return _mm_sub_ps(a, b); }
TOI_VINLINE vf vmul(vf a, vf b) { return _mm_mul_ps(a, b); }
TOI_VINLINE vf vdiv(vf a, vf b) { return _mm_div_ps(a, b); }   /* correctly rounded */
TOI_VINLINE vf vsqrt(vf a) { return _mm_sqrt_ps(a); }          /* correctly rounded */
TOI_VINLINE vf vabs(vf a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); } /* |a| = a & ~sign */

/* Ordered compares: false when either side is NaN, as C's <, <=, >, >=, ==. */
TOI_VINLINE vm vlt(vf a, vf b) { return _mm_cmplt_ps(a, b); }
TOI_VINLINE vm vle(vf a, vf b) { return _mm_cmple_ps(a, b); }
TOI_VINLINE vm vgt(vf a, vf b) { return _mm_cmpgt_ps(a, b); }
TOI_VINLINE vm vge(vf a, vf b) { return _mm_cmpge_ps(a, b); }
TOI_VINLINE vm veq(vf a, vf b) { return _mm_cmpeq_ps(a, b); }

TOI_VINLINE vm mand(vm a, vm b) { return _mm_and_ps(a, b); }
TOI_VINLINE vm mor(vm a, vm b) { return _mm_or_ps(a, b); }
TOI_VINLINE vm mandnot(vm a, vm b) { return _mm_andnot_ps(b, a); } /* a & ~b */
TOI_VINLINE vm mconst(int on) { return _mm_castsi128_ps(_mm_set1_epi32(on ? -1 : 0)); }
TOI_VINLINE unsigned mbits(vm m) { return (unsigned)_mm_movemask_ps(m); } /* lane i -> bit i */

TOI_VINLINE vf vsel(vm m, vf a, vf b) { return _mm_blendv_ps(b, a, m); } /* m ? a : b */

TOI_VINLINE vf vneg(vf a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); } /* -a: sign flip */

/* The triangle normal (b - a) x (c - a) * k2 per lane, from world coordinates, in double:
   the differences of floats and their products are exact there (or, for wildly different
   magnitudes, rounded far below float precision), so each component is the exact normal
   rounded about once to float (k2: an exact power of two). */
TOI_VINLINE void vtri_normal(const vf a[3], const vf b[3], const vf c[3], vf k2, vf N[3])
{
    __m128d lo[3], hi[3];
    TOI_UNROLL
    for (int half = 0; half < 2; half++) {
        __m128d e[3], f[3];
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            __m128 aj = half ? _mm_movehl_ps(a[j], a[j]) : a[j];
            __m128 bj = half ? _mm_movehl_ps(b[j], b[j]) : b[j];
            __m128 cj = half ? _mm_movehl_ps(c[j], c[j]) : c[j];
            e[j] = _mm_sub_pd(_mm_cvtps_pd(bj), _mm_cvtps_pd(aj));
            f[j] = _mm_sub_pd(_mm_cvtps_pd(cj), _mm_cvtps_pd(aj));
        }
        __m128 kj = half ? _mm_movehl_ps(k2, k2) : k2;
        __m128d k = _mm_cvtps_pd(kj);
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            int y = (j + 1) % 3, z = (j + 2) % 3;
            __m128d n = _mm_sub_pd(_mm_mul_pd(e[y], f[z]), _mm_mul_pd(e[z], f[y]));
            n = _mm_mul_pd(_mm_mul_pd(n, k), k);
            if (half)
                hi[j] = n;
            else
                lo[j] = n;
        }
    }
    TOI_UNROLL
    for (int j = 0; j < 3; j++)
        N[j] = _mm_movelh_ps(_mm_cvtpd_ps(lo[j]), _mm_cvtpd_ps(hi[j]));
}

/* The power of two 2^(127 - E) for the exponent field E of each lane (see scalar.h). */
TOI_VINLINE vf vpow2_scale(vf m)
{
    __m128i e = _mm_and_si128(_mm_castps_si128(m), _mm_set1_epi32(0x7f800000));
    return _mm_castsi128_ps(_mm_sub_epi32(_mm_set1_epi32(0x7f000000), e));
}

/* The power of two 2^(E - 127) for the exponent field E of each lane: 1 / vpow2_scale. */
TOI_VINLINE vf vpow2_unscale(vf m)
{
    __m128i e = _mm_and_si128(_mm_castps_si128(m), _mm_set1_epi32(0x7f800000));
    __m128i sub = _mm_set1_epi32(0x00400000); /* 2^-127 when E = 0 */
    return _mm_castsi128_ps(_mm_blendv_epi8(e, sub, _mm_cmpeq_epi32(e, _mm_setzero_si128())));
}

/* VW bytes at p as floats 0..255 (a node's quantized boxes). */
TOI_VINLINE vf vload_u8(const uint8_t *p)
{
    int32_t w;
    memcpy(&w, p, sizeof w);
    return _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(w)));
}

/* base[idx[k]] for each lane k. */
TOI_VINLINE vf vgather(const float *base, const uint32_t *idx)
{
    return _mm_setr_ps(base[idx[0]], base[idx[1]], base[idx[2]], base[idx[3]]);
}

#endif /* TOI_SSE_VEC_H */
