/* walk.h - capsule characters walking over a triangle mesh with toi: each step, every
   character's wanted motion (walking plus gravity) is swept against the mesh in one batch
   (toi_sweep_capsules_mesh), moved to its contact and slid along the surface for the rest
   (sweep and slide: up to `iterations` batches a step, each one over the characters still
   moving) */
#ifndef WALK_H
#define WALK_H

#include "toi.h"

#include <stddef.h>
#include <stdint.h>

typedef struct walk_params {
    size_t n;            /* characters */
    float radius, height; /* capsule radius and full height (feet to head), metres */
    float speed;         /* walking speed, m/s */
    float dt, gravity;   /* step (s), downward acceleration (m/s^2) */
    float max_slope;     /* the steepest ground (cosine of its angle to the vertical) */
    float skin;          /* gap kept from the surface after a contact, metres */
    int iterations;      /* sweep-and-slide batches per step at most */
    float size;          /* the model scaled (uniformly) to this across, metres; 0: as read */
    uint64_t seed;
    const char *model;   /* an STL, OBJ or Terragen (.ter) file */
} walk_params;

typedef struct walk {
    walk_params prm;
    size_t ntris;
    float *tf[9];
    toi_triangles tri;
    toi_mesh *mesh;
    float lo[3], hi[3];        /* the mesh's bounding box */
    float *x, *y, *z;          /* feet (the bottom of the capsule) */
    float *vz;                 /* vertical speed */
    float *hx, *hy;            /* walking direction (unit) */
    float *turn;               /* turning rate, radians per second */
    uint8_t *grounded;
    /* one batch: the active characters gathered as capsules and their hits */
    uint32_t *act;
    float *c[10], *dx, *dy, *dz, *ht, *hnx, *hny, *hnz, *hdepth;
    uint64_t queries, hits, steps;
    toi_cost cost;
} walk;

/* Loads the model, builds its mesh, drops the characters onto it at random points (each
   placed by a downward sweep); 0 on success, -1 (a message on stderr) otherwise. */
int walk_init(walk *w, const walk_params *prm);
void walk_free(walk *w);
void walk_step(walk *w);
/* The characters whose capsule overlaps the mesh by more than tol (one batch of zero-motion
   queries with TOI_ALL_OVERLAPS: depth > tol); *worst gets the deepest overlap. */
size_t walk_overlaps(walk *w, float tol, float *worst);
walk_params walk_default_params(void);

#endif /* WALK_H */
