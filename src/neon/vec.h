/* neon/vec.h - the vector layer for aarch64 Advanced SIMD: 4 float lanes in a float32x4_t.
   Built natively on aarch64, and on x86 through SIMDe for the tests (TOI_NEON_SIMDE). */
#ifndef TOI_NEON_VEC_H
#define TOI_NEON_VEC_H

#if defined(TOI_NEON_SIMDE)
#if defined(__FMA__)
#error "SIMDe would turn NEON multiply-adds into fused ones: build without -mfma"
#endif
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#include "simde_compat.h"
#elif defined(__aarch64__)
#include <arm_neon.h>
#else
#error "src/neon is built for aarch64, or on x86 through SIMDe with -DTOI_NEON_SIMDE"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#define TOI_ISA neon
#define VW 4

typedef float32x4_t vf;  /* 4 floats */
typedef uint32x4_t vm;   /* 4 lane masks: all bits set (true) or clear (false) */
typedef uint32x4_t vu;   /* 4 uint32 */

#define TOI_VINLINE TOI_INLINE

/* Every kernel returns through this (the AVX2 layer clears the YMM upper halves there). */
TOI_VINLINE size_t vdone(size_t r) { return r; }

TOI_VINLINE vf vload(const float *p) { return vld1q_f32(p); }
TOI_VINLINE void vstore(float *p, vf a) { vst1q_f32(p, a); }
TOI_VINLINE vf vset(float x) { return vdupq_n_f32(x); }
TOI_VINLINE vf vzero(void) { return vdupq_n_f32(0.0f); }

/* No vmlaq/vfmaq anywhere: a multiply and an add stay two correctly rounded operations. */
TOI_VINLINE vf vadd(vf a, vf b) { return vaddq_f32(a, b); }
TOI_VINLINE vf vsub(vf a, vf b) { return vsubq_f32(a, b); }
TOI_VINLINE vf vmul(vf a, vf b) { return vmulq_f32(a, b); }
TOI_VINLINE vf vdiv(vf a, vf b) { return vdivq_f32(a, b); }   /* correctly rounded */
TOI_VINLINE vf vsqrt(vf a) { return vsqrtq_f32(a); }          /* correctly rounded */
TOI_VINLINE vf vabs(vf a) { return vabsq_f32(a); }            /* clears the sign bit */

/* Compares are false when either side is NaN, as C's <, <=, >, >=, ==. */
TOI_VINLINE vm vlt(vf a, vf b) { return vcltq_f32(a, b); }
TOI_VINLINE vm vle(vf a, vf b) { return vcleq_f32(a, b); }
TOI_VINLINE vm vgt(vf a, vf b) { return vcgtq_f32(a, b); }
TOI_VINLINE vm vge(vf a, vf b) { return vcgeq_f32(a, b); }
TOI_VINLINE vm veq(vf a, vf b) { return vceqq_f32(a, b); }

TOI_VINLINE vm mand(vm a, vm b) { return vandq_u32(a, b); }
TOI_VINLINE vm mor(vm a, vm b) { return vorrq_u32(a, b); }
TOI_VINLINE vm mandnot(vm a, vm b) { return vbicq_u32(a, b); } /* a & ~b */
TOI_VINLINE vm mconst(int on) { return vdupq_n_u32(on ? 0xffffffffu : 0u); }
TOI_VINLINE unsigned mbits(vm m) /* lane i -> bit i */
{
    static const uint32_t bit[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(m, vld1q_u32(bit)));
}

TOI_VINLINE vf vsel(vm m, vf a, vf b) { return vbslq_f32(m, a, b); } /* m ? a : b */

TOI_VINLINE vf vneg(vf a) { return vnegq_f32(a); } /* -a: sign flip */

/* The triangle normal (b - a) x (c - a) * k2 per lane, from world coordinates, in double:
   the differences of floats and their products are exact there (or, for wildly different
   magnitudes, rounded far below float precision), so each component is the exact normal
   rounded about once to float (k2: an exact power of two). */
TOI_VINLINE void vtri_normal(const vf a[3], const vf b[3], const vf c[3], vf k2, vf N[3])
{
    float32x2_t out[2][3];
    TOI_UNROLL
    for (int half = 0; half < 2; half++) {
        float64x2_t e[3], f[3];
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            float64x2_t aj = vcvt_f64_f32(half ? vget_high_f32(a[j]) : vget_low_f32(a[j]));
            float64x2_t bj = vcvt_f64_f32(half ? vget_high_f32(b[j]) : vget_low_f32(b[j]));
            float64x2_t cj = vcvt_f64_f32(half ? vget_high_f32(c[j]) : vget_low_f32(c[j]));
            e[j] = vsubq_f64(bj, aj);
            f[j] = vsubq_f64(cj, aj);
        }
        float64x2_t k = vcvt_f64_f32(half ? vget_high_f32(k2) : vget_low_f32(k2));
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            int y = (j + 1) % 3, z = (j + 2) % 3;
            float64x2_t n = vsubq_f64(vmulq_f64(e[y], f[z]), vmulq_f64(e[z], f[y]));
            out[half][j] = vcvt_f32_f64(vmulq_f64(vmulq_f64(n, k), k));
        }
    }
    TOI_UNROLL
    for (int j = 0; j < 3; j++)
        N[j] = vcombine_f32(out[0][j], out[1][j]);
}

/* The power of two 2^(127 - E) for the exponent field E of each lane (see scalar.h). */
TOI_VINLINE vf vpow2_scale(vf m)
{
    uint32x4_t e = vandq_u32(vreinterpretq_u32_f32(m), vdupq_n_u32(0x7f800000u));
    return vreinterpretq_f32_u32(vsubq_u32(vdupq_n_u32(0x7f000000u), e));
}

/* The power of two 2^(E - 127) for the exponent field E of each lane: 1 / vpow2_scale. */
TOI_VINLINE vf vpow2_unscale(vf m)
{
    uint32x4_t e = vandq_u32(vreinterpretq_u32_f32(m), vdupq_n_u32(0x7f800000u));
    uint32x4_t sub = vdupq_n_u32(0x00400000u); /* 2^-127 when E = 0 */
    return vreinterpretq_f32_u32(vbslq_u32(vceqq_u32(e, vdupq_n_u32(0)), sub, e));
}

/* VW bytes at p as floats 0..255 (a node's quantized boxes). */
TOI_VINLINE vf vload_u8(const uint8_t *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    uint16x8_t h = vmovl_u8(vreinterpret_u8_u32(vdup_n_u32(w)));
    return vcvtq_f32_u32(vmovl_u16(vget_low_u16(h)));
}

/* base[idx[k]] for each lane k. */
TOI_VINLINE vf vgather(const float *base, const uint32_t *idx)
{
    float32x4_t r = vdupq_n_f32(base[idx[0]]);
    r = vsetq_lane_f32(base[idx[1]], r, 1);
    r = vsetq_lane_f32(base[idx[2]], r, 2);
    r = vsetq_lane_f32(base[idx[3]], r, 3);
    return r;
}

#endif /* TOI_NEON_VEC_H */
