/* mesh_gen.h - seeded meshes and sphere batches for the mesh test groups: triangle soups of
   every query family, heightfields (shared edges), heightfields with coincident copies of
   their triangles (ties), slivers and degenerate triangles, heightfields with non-finite
   triangles; and deformations of them for refits. Same draws on every machine. */
#ifndef TOI_TEST_MESH_GEN_H
#define TOI_TEST_MESH_GEN_H

#include "test.h"

enum { MESH_SOUP, MESH_HEIGHTFIELD, MESH_COINCIDENT, MESH_SLIVERS, MESH_NONFINITE,
       MESH_NFAMILIES };
extern const char *const mesh_family_names[MESH_NFAMILIES];

typedef struct t_scene {
    t_tri tri;
    size_t ntris;
    t_sph sph;
    size_t nsph;
} t_scene;

/* ntris triangles of family fam and nsph spheres moving through them (most aimed at a
   triangle; specials: a few non-finite or negative-radius spheres among them). */
void mesh_scene(rng *r, int fam, size_t ntris, size_t nsph, t_scene *sc);
void mesh_scene_free(t_scene *sc);
/* Move every vertex a little (a deforming mesh), make a few triangles non-finite and give a
   few non-finite ones finite vertices again. */
void mesh_deform(rng *r, t_scene *sc);

#endif
