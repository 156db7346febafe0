/* gen.h - seeded random queries across the families the tests sweep: scales 1e-3, 1, 1e3,
   far from the origin, grazing, tiny motion, overlap, coincident and aligned paths, and
   special values (NaN, Inf, negative radius, denormals, huge). Same draws on every machine. */
#ifndef TOI_TEST_GEN_H
#define TOI_TEST_GEN_H

#include "test.h"

enum { GEN_NFAMILIES = 9 };
extern const char *const gen_family_names[GEN_NFAMILIES];

/* One sphere pair (x y z vx vy vz r each) of family fam (-1: a random family, specials
   included). */
void gen_pair(rng *r, int fam, float a[7], float b[7]);
/* One plane (unit normal up to float rounding) and one sphere against it. */
void gen_plane(rng *r, toi_plane *p);
void gen_plane_sphere(rng *r, int fam, const toi_plane *p, float s[7]);
/* Replace a few inputs of a query with special values (NaN, Inf, -r, denormal, huge). */
void gen_specials(rng *r, float *v, int n, int radius_index);

#endif
