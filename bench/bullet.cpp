/* bullet.cpp - peer: Bullet's btGjkConvexCast between two btSphereShapes, one pair at a time,
   as an engine using Bullet would sweep them. Built only into the benchmark (C++ for Bullet). */
#include "bench.h"

#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cmath>

static btTransform at(const float c[3], float t, const float v[3])
{
    btTransform x;
    x.setIdentity();
    x.setOrigin(btVector3(c[0] + t * v[0], c[1] + t * v[1], c[2] + t * v[2]));
    return x;
}

extern "C" size_t bullet_spheres(const aos_sphere *pairs, size_t n, int full, aos_hit *out)
{
    /* The shapes are reused and resized per pair: constructing them is not the cast's cost. */
    btSphereShape sa(1.0f), sb(1.0f);
    btVoronoiSimplexSolver simplex;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        const aos_sphere *A = &pairs[2 * i], *B = &pairs[2 * i + 1];
        sa.setUnscaledRadius(A->r);
        sb.setUnscaledRadius(B->r);
        btGjkConvexCast cast(&sa, &sb, &simplex);
        btConvexCast::CastResult res;
        res.m_fraction = 1.0f; /* only contacts within the step */
        aos_hit *h = &out[i];
        if (cast.calcTimeOfImpact(at(A->c, 0, A->v), at(A->c, 1, A->v), at(B->c, 0, B->v),
                                  at(B->c, 1, B->v), res)) {
            h->t = res.m_fraction;
            if (full) {
                for (int k = 0; k < 3; k++) {
                    h->n[k] = res.m_normal[k];
                    h->p[k] = res.m_hitPoint[k];
                }
                h->depth = 0.0f;
            }
            hits++;
        } else {
            h->t = INFINITY;
            if (full) {
                h->n[0] = h->n[1] = h->n[2] = 0.0f;
                h->p[0] = h->p[1] = h->p[2] = 0.0f;
                h->depth = 0.0f;
            }
        }
    }
    return hits;
}
