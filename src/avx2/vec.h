/* avx2/vec.h - the vector layer for AVX2: 8 float lanes in an __m256 */
#ifndef TOI_AVX2_VEC_H
#define TOI_AVX2_VEC_H

#if !defined(__AVX2__)
#error "src/avx2 is built with -mavx2"
#endif
#if defined(__FMA__)
#error "src/avx2 must not be built with -mfma: results must match the scalar reference bit for bit"
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#define TOI_ISA avx2
#define VW 8

typedef __m256 vf;   /* 8 floats */
typedef __m256 vm;   /* 8 lane masks: all bits set (true) or clear (false) */
typedef __m256i vu;  /* 8 uint32 */

#define TOI_VINLINE TOI_INLINE

/* Every kernel returns through this: the YMM upper halves are cleared explicitly, since GCC
   inserts vzeroupper only when optimising at -O2 and above, and a dirty upper state makes
   every legacy-SSE instruction of the caller pay a transition. */
TOI_VINLINE size_t vdone(size_t r)
{
    _mm256_zeroupper();
    return r;
}

TOI_VINLINE vf vload(const float *p) { return _mm256_loadu_ps(p); }
TOI_VINLINE void vstore(float *p, vf a) { _mm256_storeu_ps(p, a); }
TOI_VINLINE vf vset(float x) { return _mm256_set1_ps(x); }
TOI_VINLINE vf vzero(void) { return _mm256_setzero_ps(); }

TOI_VINLINE vf vadd(vf a, vf b) { return _mm256_add_ps(a, b); }
TOI_VINLINE vf vsub(vf a, vf b) { return _mm256_sub_ps(a, b); }
TOI_VINLINE vf vmul(vf a, vf b) { return _mm256_mul_ps(a, b); }
TOI_VINLINE vf vdiv(vf a, vf b) { return _mm256_div_ps(a, b); }   /* correctly rounded */
TOI_VINLINE vf vsqrt(vf a) { return _mm256_sqrt_ps(a); }          /* correctly rounded */
TOI_VINLINE vf vabs(vf a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }

/* Ordered, non-signalling compares: false when either side is NaN, as C's <, <=, >, >=, ==. */
TOI_VINLINE vm vlt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
TOI_VINLINE vm vle(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
TOI_VINLINE vm vgt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
TOI_VINLINE vm vge(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
TOI_VINLINE vm veq(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }

TOI_VINLINE vm mand(vm a, vm b) { return _mm256_and_ps(a, b); }
TOI_VINLINE vm mor(vm a, vm b) { return _mm256_or_ps(a, b); }
TOI_VINLINE vm mandnot(vm a, vm b) { return _mm256_andnot_ps(b, a); } /* a & ~b */
TOI_VINLINE vm mconst(int on) { return _mm256_castsi256_ps(_mm256_set1_epi32(on ? -1 : 0)); }
TOI_VINLINE unsigned mbits(vm m) { return (unsigned)_mm256_movemask_ps(m); }

TOI_VINLINE vf vsel(vm m, vf a, vf b) { return _mm256_blendv_ps(b, a, m); } /* m ? a : b */

TOI_VINLINE vf vneg(vf a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); } /* -a */

/* Partial loads and stores for the batch tail, used by common.h instead of its buffer copy
   (whose vector load after scalar stores cannot be forwarded and stalls: a batch of 9 cost
   16 ns a pair, t only, on Zen 4). Both go in pieces of 4, 2 and 1 lanes, which touch no
   byte past the array's end: the masked store (vmaskmovps) is slow on AMD CPUs, and qemu's
   emulation of the masked load faults on a masked-off lane past a page end (the guard-page
   test under qemu -cpu Haswell), which the CPU never does. */
#define TOI_VEC_MASKED_TAIL 1
TOI_VINLINE __m128 vload4_n(const float *p, size_t cnt) /* lanes [0, cnt), cnt <= 4 */
{
    if (cnt == 4)
        return _mm_loadu_ps(p);
    __m128 x = _mm_setzero_ps();
    if (cnt & 2)
        x = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)p));
    if (cnt & 1)
        x = cnt & 2 ? _mm_movelh_ps(x, _mm_load_ss(p + 2)) : _mm_load_ss(p);
    return x;
}
TOI_VINLINE vf vload_n(const float *p, size_t cnt)
{
    if (cnt == VW)
        return vload(p);
    if (cnt < 4)
        return _mm256_insertf128_ps(_mm256_setzero_ps(), vload4_n(p, cnt), 0);
    __m256 lo = _mm256_castps128_ps256(_mm_loadu_ps(p));
    return _mm256_insertf128_ps(lo, vload4_n(p + 4, cnt - 4), 1);
}
TOI_VINLINE void vstore_n(float *p, vf a, size_t cnt)
{
    if (cnt == VW) {
        vstore(p, a);
        return;
    }
    __m128 x = _mm256_castps256_ps128(a);
    if (cnt & 4) {
        _mm_storeu_ps(p, x);
        p += 4;
        x = _mm256_extractf128_ps(a, 1);
    }
    if (cnt & 2) {
        _mm_storel_epi64((__m128i *)(void *)p, _mm_castps_si128(x));
        p += 2;
        x = _mm_movehl_ps(x, x);
    }
    if (cnt & 1)
        _mm_store_ss(p, x);
}

/* The triangle normal (b - a) x (c - a) * k2 per lane, from world coordinates, in double:
   the differences of floats and their products are exact there (or, for wildly different
   magnitudes, rounded far below float precision), so each component is the exact normal
   rounded about once to float (k2: an exact power of two). */
TOI_VINLINE void vtri_normal(const vf a[3], const vf b[3], const vf c[3], vf k2, vf N[3])
{
    __m128 out[2][3];
    TOI_UNROLL
    for (int half = 0; half < 2; half++) {
        __m256d e[3], f[3];
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            __m128 aj = half ? _mm256_extractf128_ps(a[j], 1) : _mm256_castps256_ps128(a[j]);
            __m128 bj = half ? _mm256_extractf128_ps(b[j], 1) : _mm256_castps256_ps128(b[j]);
            __m128 cj = half ? _mm256_extractf128_ps(c[j], 1) : _mm256_castps256_ps128(c[j]);
            e[j] = _mm256_sub_pd(_mm256_cvtps_pd(bj), _mm256_cvtps_pd(aj));
            f[j] = _mm256_sub_pd(_mm256_cvtps_pd(cj), _mm256_cvtps_pd(aj));
        }
        __m256d k = _mm256_cvtps_pd(half ? _mm256_extractf128_ps(k2, 1)
                                         : _mm256_castps256_ps128(k2));
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            int y = (j + 1) % 3, z = (j + 2) % 3;
            __m256d n = _mm256_sub_pd(_mm256_mul_pd(e[y], f[z]), _mm256_mul_pd(e[z], f[y]));
            out[half][j] = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_mul_pd(n, k), k));
        }
    }
    TOI_UNROLL
    for (int j = 0; j < 3; j++)
        N[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(out[0][j]), out[1][j], 1);
}

/* The power of two 2^(127 - E) for the exponent field E of each lane (see scalar.h). */
TOI_VINLINE vf vpow2_scale(vf m)
{
    __m256i e = _mm256_and_si256(_mm256_castps_si256(m), _mm256_set1_epi32(0x7f800000));
    return _mm256_castsi256_ps(_mm256_sub_epi32(_mm256_set1_epi32(0x7f000000), e));
}

/* The power of two 2^(E - 127) for the exponent field E of each lane: 1 / vpow2_scale. */
TOI_VINLINE vf vpow2_unscale(vf m)
{
    __m256i e = _mm256_and_si256(_mm256_castps_si256(m), _mm256_set1_epi32(0x7f800000));
    __m256i sub = _mm256_set1_epi32(0x00400000); /* 2^-127 when E = 0 */
    return _mm256_castsi256_ps(
        _mm256_blendv_epi8(e, sub, _mm256_cmpeq_epi32(e, _mm256_setzero_si256())));
}

/* VW bytes at p as floats 0..255 (a node's quantized boxes). */
TOI_VINLINE vf vload_u8(const uint8_t *p)
{
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}

/* base[idx[k]] for each lane k: eight scalar loads. */
TOI_VINLINE vf vgather(const float *base, const uint32_t *idx)
{
    __m128 lo = _mm_setr_ps(base[idx[0]], base[idx[1]], base[idx[2]], base[idx[3]]);
    __m128 hi = _mm_setr_ps(base[idx[4]], base[idx[5]], base[idx[6]], base[idx[7]]);
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

/* base[idx[k]] for lanes [0, cnt); the tail's missing lanes read base[idx[0]]. */
TOI_VINLINE vf vgather_n(const float *base, const uint32_t *idx, size_t cnt)
{
    if (cnt == VW)
        return vgather(base, idx);
    uint32_t tmp[VW];
    for (size_t k = 0; k < VW; k++)
        tmp[k] = idx[k < cnt ? k : 0];
    return vgather(base, tmp);
}

#endif /* TOI_AVX2_VEC_H */
