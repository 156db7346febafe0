/* peers.h - the peers of the benchmark programs of their own (bench/boxes.c,
   bench/capsules.c): Bullet's, defined in bullet.cpp, only in builds with Bullet
   (TOI_BENCH_BULLET); the textbook capsule-triangle sweep (textbook_capsule.c) and the plain
   box sweep (plain_boxes.c), in every build. */
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

/* The plain 15-axis linear box sweep issue 11 names as its baseline (plain_boxes.c: one
   loop the compiler vectorises, not robust): t[i] in [0, 1], 2 on a miss; returns the hits.
   On x86-64 it is compiled for AVX2: call it only where the CPU has AVX2. */
size_t plain_boxes(size_t n, const toi_boxes *a, const toi_boxes *b, float *t);

/* The textbook capsule-triangle sweep (array of structs, one pair at a time, floats):
   capsule i (segment p0 -> p1 of radius r, translated by v) against triangle i at rest;
   t[i] in [0, 1], INFINITY on a miss; returns the hits. */
typedef struct tb_capsule {
    float p0[3], p1[3], v[3], r;
} tb_capsule;
typedef struct tb_tri {
    float v[3][3];
} tb_tri;
size_t textbook_capsules_triangles(size_t n, const tb_capsule *c, const tb_tri *tri,
                                   float *t);
#ifdef __cplusplus
}
#endif

#endif /* TOI_BENCH_PEERS_H */
