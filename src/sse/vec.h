/* sse/vec.h - the vector layer for SSE4.1: 4 float lanes in an __m128 */
#ifndef TOI_SSE_VEC_H
#define TOI_SSE_VEC_H

#if !defined(__SSE4_1__)
#error "src/sse is built with -msse4.1"
#endif

#include <smmintrin.h>
#include <stdint.h>

#define TOI_ISA sse
#define VW 4

typedef __m128 vf;   /* 4 floats */
typedef __m128 vm;   /* 4 lane masks: all bits set (true) or clear (false) */
typedef __m128i vu;  /* 4 uint32 */

#define TOI_VINLINE static inline __attribute__((always_inline))

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

/* a*b - c*d per lane with exact products in double and one rounding to double, then one to
   float: the scalar reference's (float)((double)a * b - (double)c * d). */
TOI_VINLINE vf vdiffprod(vf a, vf b, vf c, vf d)
{
    __m128d lo = _mm_sub_pd(_mm_mul_pd(_mm_cvtps_pd(a), _mm_cvtps_pd(b)),
                            _mm_mul_pd(_mm_cvtps_pd(c), _mm_cvtps_pd(d)));
    __m128d hi = _mm_sub_pd(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(a, a)),
                                       _mm_cvtps_pd(_mm_movehl_ps(b, b))),
                            _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(c, c)),
                                       _mm_cvtps_pd(_mm_movehl_ps(d, d))));
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
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

/* base[idx[k]] for each lane k. */
TOI_VINLINE vf vgather(const float *base, const uint32_t *idx)
{
    return _mm_setr_ps(base[idx[0]], base[idx[1]], base[idx[2]], base[idx[3]]);
}

#endif /* TOI_SSE_VEC_H */
