/* peers.h - the Bullet peers of the benchmark programs of their own (bench/boxes.c,
   bench/capsules.c), defined in bullet.cpp; only in builds with Bullet (TOI_BENCH_BULLET). */
#ifndef TOI_BENCH_PEERS_H
#define TOI_BENCH_PEERS_H

#include "toi.h"

#ifdef __cplusplus
extern "C" {
#endif
/* btContinuousConvexCollision of two btBoxShapes (margin 0), linear and angular motion (the
   end orientation turned by the rotation vector w): t[i] in [0, 1], INFINITY on a miss */
size_t bullet_boxes(size_t n, const toi_boxes *a, const toi_boxes *b, float *t);
/* a btCapsuleShape (along p0 -> p1, radius r, translated) against btTriangleShape i (margin
   0): t[i] in [0, 1], INFINITY on a miss */
size_t bullet_capsules_triangles(size_t n, const toi_capsules *c, const toi_triangles *tri,
                                 float *t);
#ifdef __cplusplus
}
#endif

#endif /* TOI_BENCH_PEERS_H */
