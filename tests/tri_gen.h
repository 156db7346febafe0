/* tri_gen.h - seeded random sphere-triangle queries for the triangle test groups: scales 1e-3,
   1, 1e3, far from the origin, grazing edges and vertices, tiny motion, overlap, needle /
   sliver / degenerate triangles, sliding along the face or an edge, sliding exactly along a
   triangulated floor (collinear floor triangles included), exact grazing of axis-aligned
   edges and vertices, and special values. */
#ifndef TOI_TEST_TRI_GEN_H
#define TOI_TEST_TRI_GEN_H

#include "test.h"

enum { TRI_NFAMILIES = 12, TRI_FAM_SPECIAL = TRI_NFAMILIES - 1 };
extern const char *const tri_family_names[TRI_NFAMILIES];

/* One query of family fam (-1: any, specials included): sphere S (x y z vx vy vz r) and
   triangle T (ax ay az bx by bz cx cy cz). */
void tri_gen(rng *r, int fam, float S[7], float T[9]);

#endif
