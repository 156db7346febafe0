/* neon/simde_compat.h - NEON intrinsics missing from older SIMDe, for the x86 test build only.
   SIMDe gained vdivq_f32 and vsqrtq_f32 in 0.8.0; Debian 12 ships 0.7.4. Each lane is one
   correctly rounded IEEE divide or square root, exactly what the aarch64 instructions compute
   (never a reciprocal estimate, which is neither exact nor the same on x86 and ARM). */
#ifndef TOI_NEON_SIMDE_COMPAT_H
#define TOI_NEON_SIMDE_COMPAT_H

#if SIMDE_VERSION < HEDLEY_VERSION_ENCODE(0, 8, 0)
#include <math.h>

static inline simde_float32x4_t toi_simde_vdivq_f32(simde_float32x4_t a, simde_float32x4_t b)
{
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int i = 0; i < 4; i++)
        x[i] = x[i] / y[i];
    return simde_vld1q_f32(x);
}

static inline simde_float32x4_t toi_simde_vsqrtq_f32(simde_float32x4_t a)
{
    float x[4];
    simde_vst1q_f32(x, a);
    for (int i = 0; i < 4; i++)
        x[i] = sqrtf(x[i]);
    return simde_vld1q_f32(x);
}

#define vdivq_f32 toi_simde_vdivq_f32
#define vsqrtq_f32 toi_simde_vsqrtq_f32
#endif

#endif /* TOI_NEON_SIMDE_COMPAT_H */
