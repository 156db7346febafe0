/* avx512/vec.h - the vector layer for AVX-512F: 16 float lanes in a __m512, masks in __mmask16 */
#ifndef TOI_AVX512_VEC_H
#define TOI_AVX512_VEC_H

/* On x86 without AVX-512 the tests build these kernels through SIMDe as well
   (TOI_AVX512_SIMDE, with -mavx2: toi_tests_avx512simde, docs/testing.md), under the name
   avx512simde so that they sit beside the native ones; never part of the library. */
#if defined(TOI_AVX512_SIMDE)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include "simde_compat.h"
#elif !defined(__AVX512F__)
#error "src/avx512 is built with -mavx512f"
#endif
/* No #error on __FMA__ here, unlike the AVX2 layer: AVX-512F contains the FMA instructions,
   and clang defines __FMA__ with -mavx512f (GCC does not) with no way to keep AVX-512F and
   drop FMA. What keeps the results bit-identical to the scalar reference is the same as on
   every backend: -ffp-contract=off on every file (the compiler never fuses a multiply and an
   add), and no FMA intrinsic anywhere in this layer. Only AVX-512F intrinsics are used (no
   VL, DQ or BW), so dispatch needs only the AVX-512F bit. */

#if !defined(TOI_AVX512_SIMDE)
#include <immintrin.h>
#endif
#include <stddef.h>
#include <stdint.h>

#include "../internal.h"

#if defined(TOI_AVX512_SIMDE)
#define TOI_ISA avx512simde
#else
#define TOI_ISA avx512
#endif
#define VW 16

typedef __m512 vf;     /* 16 floats */
typedef __mmask16 vm;  /* 16 lane masks: bit i is lane i */
typedef __m512i vu;    /* 16 uint32 */

#define TOI_VINLINE TOI_INLINE

/* Every kernel returns through this. VZEROUPPER clears bits 128 and up of ZMM0-15 (the YMM
   and ZMM upper state, XINUSE bits 2 and 7), which would otherwise make the caller's
   legacy-SSE instructions pay a transition; GCC emits it only from -O2. ZMM16-31 and the
   opmask registers cost legacy SSE nothing, and it leaves them alone. */
TOI_VINLINE size_t vdone(size_t r)
{
    _mm256_zeroupper();
    return r;
}

TOI_VINLINE vf vload(const float *p) { return _mm512_loadu_ps(p); }
TOI_VINLINE void vstore(float *p, vf a) { _mm512_storeu_ps(p, a); }
TOI_VINLINE vf vset(float x) { return _mm512_set1_ps(x); }
TOI_VINLINE vf vzero(void) { return _mm512_setzero_ps(); }

TOI_VINLINE vf vadd(vf a, vf b) { return _mm512_add_ps(a, b); }
TOI_VINLINE vf vsub(vf a, vf b) { return _mm512_sub_ps(a, b); }
TOI_VINLINE vf vmul(vf a, vf b) { return _mm512_mul_ps(a, b); }
TOI_VINLINE vf vdiv(vf a, vf b) { return _mm512_div_ps(a, b); }   /* correctly rounded */
TOI_VINLINE vf vsqrt(vf a) { return _mm512_sqrt_ps(a); }          /* correctly rounded */

/* AVX-512F has no float and/xor (they are DQ): the integer forms on the same bits. */
TOI_VINLINE vf vabs(vf a) /* |a| = a & ~sign */
{
    return _mm512_castsi512_ps(
        _mm512_and_epi32(_mm512_castps_si512(a), _mm512_set1_epi32(0x7fffffff)));
}
TOI_VINLINE vf vneg(vf a) /* -a: sign flip */
{
    return _mm512_castsi512_ps(
        _mm512_xor_epi32(_mm512_castps_si512(a), _mm512_set1_epi32((int)0x80000000u)));
}

/* Ordered, non-signalling compares: false when either side is NaN, as C's <, <=, >, >=, ==. */
TOI_VINLINE vm vlt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
TOI_VINLINE vm vle(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
TOI_VINLINE vm vgt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
TOI_VINLINE vm vge(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
TOI_VINLINE vm veq(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }

TOI_VINLINE vm mand(vm a, vm b) { return (vm)(a & b); }
TOI_VINLINE vm mor(vm a, vm b) { return (vm)(a | b); }
TOI_VINLINE vm mandnot(vm a, vm b) { return (vm)(a & ~b); } /* a & ~b */
TOI_VINLINE vm mconst(int on) { return (vm)(on ? 0xffffu : 0u); }
TOI_VINLINE unsigned mbits(vm m) { return (unsigned)m; } /* lane i -> bit i */

TOI_VINLINE vf vsel(vm m, vf a, vf b) { return _mm512_mask_blend_ps(m, b, a); } /* m ? a : b */

/* Lanes [0, cnt) of a whole vector, cnt in 1..VW. */
TOI_VINLINE vm vfirst(size_t cnt) { return (vm)(0xffffu >> (VW - cnt)); }

/* Partial loads and stores for the batch tail, used by common.h instead of its buffer copy:
   masked, and a masked-off lane is never accessed (no fault past the array's end). */
#define TOI_VEC_MASKED_TAIL 1
TOI_VINLINE vf vload_n(const float *p, size_t cnt)
{
    if (cnt == VW)
        return vload(p);
    return _mm512_maskz_loadu_ps(vfirst(cnt), p);
}
TOI_VINLINE void vstore_n(float *p, vf a, size_t cnt)
{
    if (cnt == VW)
        vstore(p, a);
    else
        _mm512_mask_storeu_ps(p, vfirst(cnt), a);
}

/* base[idx[k]] for lanes [0, cnt) (the others 0): scalar loads, four lanes at a time. The
   hardware gather (vgatherdps) was slower on the Zen 4 measured (pair lists 9.96 against
   8.80 ns a pair, bodies in L2), and its indices are signed 32-bit. */
TOI_VINLINE vf vgather(const float *base, const uint32_t *idx)
{
    __m128 q0 = _mm_setr_ps(base[idx[0]], base[idx[1]], base[idx[2]], base[idx[3]]);
    __m128 q1 = _mm_setr_ps(base[idx[4]], base[idx[5]], base[idx[6]], base[idx[7]]);
    __m128 q2 = _mm_setr_ps(base[idx[8]], base[idx[9]], base[idx[10]], base[idx[11]]);
    __m128 q3 = _mm_setr_ps(base[idx[12]], base[idx[13]], base[idx[14]], base[idx[15]]);
    __m512 v = _mm512_castps128_ps512(q0);
    v = _mm512_insertf32x4(v, q1, 1);
    v = _mm512_insertf32x4(v, q2, 2);
    return _mm512_insertf32x4(v, q3, 3);
}
TOI_VINLINE vf vgather_n(const float *base, const uint32_t *idx, size_t cnt)
{
    if (cnt == VW)
        return vgather(base, idx);
    float tmp[VW] = {0};
    for (size_t k = 0; k < cnt; k++)
        tmp[k] = base[idx[k]];
    return vload(tmp);
}

/* VW bytes at p as floats 0..255 (a node's quantized boxes). */
TOI_VINLINE vf vload_u8(const uint8_t *p)
{
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p)));
}

/* Batches of at most TOI_NARROW_MAX sphere-sphere, pair-list or plane queries run on the
   avx2 kernels (bit-identical, like every backend): one 8-lane vector's dependency chain
   (two square roots and two divisions in a row with every output) is shorter in 256-bit
   registers, and on CPUs that split 512-bit operations in two (Zen 4) a batch of 8 took
   10.2 ns a pair in zmm against 6.1 in ymm, all outputs. */
#define TOI_NARROW_MAX 8
#define TOI_NARROW(name) toi_avx2_##name
struct toi_spheres;
struct toi_hits;
struct toi_plane;
size_t toi_avx2_sweep_spheres(size_t n, const struct toi_spheres *a, const struct toi_spheres *b,
                              unsigned flags, const struct toi_hits *out);
size_t toi_avx2_sweep_sphere_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                   const struct toi_spheres *bodies, unsigned flags,
                                   const struct toi_hits *out);
size_t toi_avx2_sweep_spheres_plane(size_t n, const struct toi_spheres *s,
                                    const struct toi_plane *plane, unsigned flags,
                                    const struct toi_hits *out);

/* The triangle normal (b - a) x (c - a) * k2 per lane, from world coordinates, in double:
   the differences of floats and their products are exact there (or, for wildly different
   magnitudes, rounded far below float precision), so each component is the exact normal
   rounded about once to float (k2: an exact power of two). */
TOI_VINLINE __m256 vhalf(vf a, int half)
{
    return half ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1))
                : _mm512_castps512_ps256(a);
}
TOI_VINLINE void vtri_normal(const vf a[3], const vf b[3], const vf c[3], vf k2, vf N[3])
{
    __m256 out[2][3];
    TOI_UNROLL
    for (int half = 0; half < 2; half++) {
        __m512d e[3], f[3];
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            __m512d aj = _mm512_cvtps_pd(vhalf(a[j], half));
            e[j] = _mm512_sub_pd(_mm512_cvtps_pd(vhalf(b[j], half)), aj);
            f[j] = _mm512_sub_pd(_mm512_cvtps_pd(vhalf(c[j], half)), aj);
        }
        __m512d k = _mm512_cvtps_pd(vhalf(k2, half));
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            int y = (j + 1) % 3, z = (j + 2) % 3;
            __m512d n = _mm512_sub_pd(_mm512_mul_pd(e[y], f[z]), _mm512_mul_pd(e[z], f[y]));
            out[half][j] = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_mul_pd(n, k), k));
        }
    }
    TOI_UNROLL
    for (int j = 0; j < 3; j++)
        N[j] = _mm512_castpd_ps(_mm512_insertf64x4(
            _mm512_castpd256_pd512(_mm256_castps_pd(out[0][j])), _mm256_castps_pd(out[1][j]),
            1));
}

/* The power of two 2^(127 - E) for the exponent field E of each lane (see scalar.h). */
TOI_VINLINE vf vpow2_scale(vf m)
{
    __m512i e = _mm512_and_epi32(_mm512_castps_si512(m), _mm512_set1_epi32(0x7f800000));
    return _mm512_castsi512_ps(_mm512_sub_epi32(_mm512_set1_epi32(0x7f000000), e));
}

/* The power of two 2^(E - 127) for the exponent field E of each lane: 1 / vpow2_scale. */
TOI_VINLINE vf vpow2_unscale(vf m)
{
    __m512i e = _mm512_and_epi32(_mm512_castps_si512(m), _mm512_set1_epi32(0x7f800000));
    __m512i sub = _mm512_set1_epi32(0x00400000); /* 2^-127 when E = 0 */
    return _mm512_castsi512_ps(
        _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512()), e, sub));
}

#endif /* TOI_AVX512_VEC_H */
