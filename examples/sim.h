/* sim.h - a particle system on toi: fast spheres in a closed triangle-mesh container, or
   poured onto a model read from a file, swept against the triangles through a toi_mesh */
#ifndef SIM_H
#define SIM_H

#include "toi.h"

#include <stddef.h>
#include <stdint.h>

/* The scene's triangles, as a toi_mesh for the sweeps, and a floor plane. The container
   scene: a tessellated sphere (an icosphere, vertices on the sphere of radius R around the
   origin) cut by the floor z = floor_z, its triangles facing inward. The model scene: a
   model's triangles (scaled to about a unit across, resting on the floor). */
typedef struct sim_mesh {
    size_t ntris;
    float *f[9];       /* ax ay az bx by bz cx cy cz */
    toi_triangles tri;
    toi_mesh *bvh;     /* built from tri */
    float *pn[4];      /* container: each face's plane: unit outward normal n and offset d */
    float radius;      /* container: R */
    float inradius;    /* container: the least d: a centre closer to the origin is inside */
    float lo[3], hi[3]; /* the triangles' bounding box */
    toi_plane floor;   /* solid below: z < floor_z */
} sim_mesh;

typedef struct sim_params {
    size_t n;           /* particles */
    float radius;       /* particle radius */
    float speed;        /* initial speed, container radii per second */
    float dt, gravity;  /* step length (s), downward acceleration */
    float restitution, friction;
    int iterations;     /* sweep-and-respond passes per step at most */
    int subdiv;         /* icosphere subdivisions: 20 * 4^subdiv triangles */
    uint64_t seed;
    const char *model;  /* NULL: the container scene; else an STL or OBJ file poured onto */
    int model_up;       /* the model's up axis: 0 x, 1 y, 2 z */
} sim_params;

/* State, structure of arrays: centre p, velocity u, and scratch for one step. */
typedef struct sim {
    sim_params prm;
    sim_mesh mesh;
    float *x, *y, *z, *ux, *uy, *uz;
    float *r;                 /* every particle's radius (the query arrays want one each) */
    uint8_t *escaped;         /* set once a centre has left the container (container scene)
                                 or crossed a triangle in a step (model scene) */
    size_t nescaped;
    /* scratch: the active particles of one pass, gathered */
    uint32_t *act;
    float *ax, *ay, *az, *avx, *avy, *avz, *aux, *auy, *auz;
    float *ht, *hnx, *hny, *hnz, *hdepth, *bt, *bnx, *bny, *bnz, *bdepth;
    uint32_t *bidx;
    float *mt, *mnx, *mny, *mnz, *mdepth; /* the mesh query's results */
    uint32_t *midx;
    float *px0, *py0, *pz0;   /* model scene: every centre at the start of the step */
    /* counters: queries, and the mesh's box and triangle tests */
    uint64_t plane_queries, mesh_queries, responses, steps;
    toi_cost cost;
} sim;

/* Builds the scene and its mesh, places the particles; 0 on success (-1: no memory, or the
   model could not be read: a message on stderr). */
int sim_init(sim *s, const sim_params *prm);
void sim_free(sim *s);
/* One step with swept tests (swept = 1) or with the discrete overlap test (0). */
void sim_step(sim *s, int swept);
/* Marks and counts the particles that escaped: centres that left the container, or (model
   scene) whose centre crossed a triangle during the last step - a point swept from its
   position at the step's start to its end against the same mesh. Call after every step. */
size_t sim_check_escapes(sim *s);
/* FNV-1a over the bits of every particle's position and velocity. */
uint64_t sim_hash(const sim *s);
sim_params sim_default_params(void);

#endif /* SIM_H */
