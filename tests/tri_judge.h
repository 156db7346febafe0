/* tri_judge.h - the accuracy group's judgement of one sphere against one triangle by the
   long-double oracle (tests/test_triangles_acc.c), for the triangle and mesh accuracy
   groups alike */
#ifndef TOI_TEST_TRI_JUDGE_H
#define TOI_TEST_TRI_JUDGE_H

#include "oracle.h"
#include "test.h"

typedef struct tri_q {
    ld p[3], v[3], V[3][3];
} tri_q;

/* The oracle's first contacts with the radius shrunk and grown by the margin delta =
   64 FLT_EPSILON S (S the largest of the vertices' distances from the start centre, |v|
   and r); amb: within the margin of tangential at t = 0 (either answer accepted). */
typedef struct tri_judge {
    tri_q q;
    ld R, S, delta, f0, slope0;
    int amb, culled;
    oracle_hit hs, hg;
} tri_judge;

tri_judge tri_judge_make(const float S[7], const float T[9], unsigned flags);
/* A hit's outputs o (t nx ny nz px py pz depth) and feature against the judged triangle at
   the reported t; 0 (with CHECK failures naming query id) when they fail. */
int tri_judge_outputs(const tri_judge *j, const float o[8], unsigned feature, size_t id);
void tri_judge_print(const tri_judge *j, const float S[7], const float T[9], const float o[8],
                     unsigned feature, unsigned flags);
/* The triangle V's point nearest x (long double): the plane foot when it falls inside, else
   the nearest clamped edge point (also the capsule-triangle oracle's). */
void tri_closest_ld(const ld V[3][3], const ld x[3], ld out[3]);
/* The largest point error seen by tri_judge_outputs, as a fraction of its bound. */
extern ld acc_worst_q;

#endif
