/* oracle.h - an independent long-double oracle for the contract's one rule, built another way
   than the kernels: no quadratic, but golden-section search and bisection on the convex
   distance function f(t). Used only by the accuracy group. */
#ifndef TOI_TEST_ORACLE_H
#define TOI_TEST_ORACLE_H

#include <stddef.h>

typedef long double ld;

/* f(q, t): the distance function of one query (convex in t on [0,1]). */
typedef ld (*oracle_fn)(const void *q, ld t);

typedef struct oracle_hit {
    int hit;
    ld t;
} oracle_hit;

/* The first t in [0,1] with f(t) <= R while f decreases; touching at 0 counts when slope0
   (the sign of f'(0)) is negative, or always with all_overlaps. */
oracle_hit oracle_first_contact(oracle_fn f, const void *q, ld R, ld slope0, int all_overlaps);

/* The exit: the last t >= t_in with f(t) <= R, where f(t_in) <= R (the end of the contact
   interval holding t_in, f convex on t >= 0): the step doubled from t_in until f exceeds R,
   then bisection. INFINITY when f stays within R up to t = 2^140 (beyond any float time). */
ld oracle_last_contact(oracle_fn f, const void *q, ld R, ld t_in);

/* The exit time te (toi_hits.t_exit) of the result t, judged: TOI_NO_HIT for a miss; for a
   hit at least t, and between the shrunk pair's exit (from its first contact hs; t when it
   has none) and the grown pair's (from hg), each widened by the float rounding of the
   result; an exit beyond the float range reads +inf. qs and qg: the query for the shrunk
   and the grown bound (usually both q). Reports a failure (CHECK) and returns 0 if not. */
int oracle_exit_check(oracle_fn f, const void *qs, const void *qg, ld R, ld delta, oracle_hit hs,
                      oracle_hit hg, float t, float te, const char *what, size_t i);

/* A reported normal nv judged against n, the unit vector along d (the vector between the
   nearest points at the reported t; (1, 0, 0) for d = 0): err = |nv - n|, len = |nv|, and the
   tolerance tol = 4 delta / |d| + 1e-6, or `any` within 4 delta of touching, where the
   direction is not determined (2 plus rounding: every unit vector). ok: unit length within
   1e-6 and err within tol. */
typedef struct oracle_normal {
    ld n[3], err, len, tol;
    int ok;
} oracle_normal;
oracle_normal oracle_normal_check(const float nv[3], const ld d[3], ld delta, ld any);

ld ld_abs(ld x);
ld ld_sqrt(ld x);
ld ld_norm3(ld x, ld y, ld z);

#endif
