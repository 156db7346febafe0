/* sim.h - a particle system on toi: fast spheres in a closed triangle-mesh container */
#ifndef SIM_H
#define SIM_H

#include "toi.h"

#include <stddef.h>
#include <stdint.h>

/* The container: a tessellated sphere (an icosphere, vertices on the sphere of radius R
   around the origin) cut by a floor plane z = floor_z. Triangles face inward. */
typedef struct sim_mesh {
    size_t ntris;
    float *f[9];       /* ax ay az bx by bz cx cy cz */
    toi_triangles tri;
    float *pn[4];      /* each face's plane: unit outward normal n and offset d (n.x = d) */
    float radius;      /* R */
    float inradius;    /* the least d: a centre closer to the origin is inside every face */
    toi_plane floor;   /* solid below: z < floor_z */
} sim_mesh;

/* A uniform grid over the container's bounding box; cell c holds the triangles whose bounding
   boxes overlap it: tris[start[c] .. start[c + 1]). */
typedef struct sim_grid {
    float lo[3], cell;
    int dim;
    uint32_t *start, *tris;
} sim_grid;

typedef struct sim_params {
    size_t n;           /* particles */
    float radius;       /* particle radius */
    float speed;        /* initial speed, container radii per second */
    float dt, gravity;  /* step length (s), downward acceleration */
    float restitution, friction;
    int iterations;     /* sweep-and-respond passes per step at most */
    int subdiv;         /* icosphere subdivisions: 20 * 4^subdiv triangles */
    uint64_t seed;
} sim_params;

/* State, structure of arrays: centre p, velocity u, and scratch for one step. */
typedef struct sim {
    sim_params prm;
    sim_mesh mesh;
    sim_grid grid;
    float *x, *y, *z, *ux, *uy, *uz;
    float *r;                 /* every particle's radius (the query arrays want one each) */
    uint8_t *escaped;         /* set once a centre has left the container */
    size_t nescaped;
    /* scratch: the active particles of one pass, gathered */
    uint32_t *act;
    float *ax, *ay, *az, *avx, *avy, *avz, *aux, *auy, *auz;
    float *ht, *hnx, *hny, *hnz, *hdepth, *bt, *bnx, *bny, *bnz, *bdepth;
    uint32_t *bidx;
    uint32_t *stamp;          /* per triangle: the last query that listed it (dedupe) */
    uint32_t stamp_now;
    uint32_t *is, *it;        /* candidate pairs */
    float *pt, *pnx, *pny, *pnz, *pdepth;
    size_t npairs_cap;
    /* counters */
    uint64_t plane_queries, tri_queries, responses, steps;
} sim;

/* Builds the container and the grid, places the particles; 0 on success. */
int sim_init(sim *s, const sim_params *prm);
void sim_free(sim *s);
/* One step with swept tests (swept = 1) or with the discrete overlap test (0). */
void sim_step(sim *s, int swept);
/* Marks and counts particles whose centres left the container (checked after every step). */
size_t sim_check_escapes(sim *s);
/* FNV-1a over the bits of every particle's position and velocity. */
uint64_t sim_hash(const sim *s);
sim_params sim_default_params(void);

#endif /* SIM_H */
