/* bullet.cpp - peer: Bullet's btGjkConvexCast between two btSphereShapes, its
   btContinuousConvexCollision of a sphere against a btTriangleShape, of two btBoxShapes
   (linear and angular motion) and of a btCapsuleShape against btTriangleShapes, one pair at a
   time, as an engine using Bullet would sweep them. Built only into the benchmarks (C++ for
   Bullet). */
#include "bench.h"
#include "peers.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cfloat>
#include <cmath>
#include <new>

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

#ifdef TOI_BENCH_TRIANGLES
static btVector3 vec(const float p[3])
{
    return btVector3(p[0], p[1], p[2]);
}

static void miss(aos_hit *h, int full)
{
    h->t = INFINITY;
    h->index = UINT32_MAX;
    if (full) {
        h->n[0] = h->n[1] = h->n[2] = 0.0f;
        h->p[0] = h->p[1] = h->p[2] = 0.0f;
        h->depth = 0.0f;
    }
}

/* One sphere against one triangle; on a hit earlier than *best, *best and the outputs. The
   triangle gets no collision margin: Bullet's default (0.04) would grow it. */
static bool cast_tri(btSphereShape &sphere, const aos_sphere *S, btTriangleShape &tri,
                     btVoronoiSimplexSolver &simplex, btGjkEpaPenetrationDepthSolver &epa,
                     float *best, int full, aos_hit *h)
{
    btContinuousConvexCollision cast(&sphere, &tri, &simplex, &epa);
    btConvexCast::CastResult res;
    res.m_fraction = *best;
    btTransform still;
    still.setIdentity();
    if (!cast.calcTimeOfImpact(at(S->c, 0, S->v), at(S->c, 1, S->v), still, still, res) ||
        !(res.m_fraction < *best))
        return false;
    *best = res.m_fraction;
    h->t = res.m_fraction;
    if (full) {
        for (int k = 0; k < 3; k++) {
            h->n[k] = res.m_normal[k];
            h->p[k] = res.m_hitPoint[k];
        }
        h->depth = 0.0f;
    }
    return true;
}

extern "C" size_t bullet_tri_pairs(const aos_sphere *s, const aos_tri *tri, size_t n, int full,
                                   aos_hit *out)
{
    btSphereShape sphere(1.0f);
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        sphere.setUnscaledRadius(s[i].r);
        btTriangleShape t(vec(tri[i].a), vec(tri[i].b), vec(tri[i].c));
        t.setMargin(0.0f);
        float best = 1.0f + FLT_EPSILON; /* accept t = 1 */
        miss(&out[i], full);
        hits += cast_tri(sphere, &s[i], t, simplex, epa, &best, full, &out[i]);
    }
    return hits;
}

extern "C" size_t bullet_tri_set(const aos_sphere *s, size_t n, const aos_tri *tri,
                                 size_t ntris, int full, aos_hit *out)
{
    btSphereShape sphere(1.0f);
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btTriangleShape *shapes = static_cast<btTriangleShape *>(
        btAlignedAlloc(ntris * sizeof(btTriangleShape), 16));
    for (size_t k = 0; k < ntris; k++) {
        new (&shapes[k]) btTriangleShape(vec(tri[k].a), vec(tri[k].b), vec(tri[k].c));
        shapes[k].setMargin(0.0f);
    }
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        sphere.setUnscaledRadius(s[i].r);
        float best = 1.0f + FLT_EPSILON;
        miss(&out[i], full);
        /* every triangle, keeping the earliest: what a per-triangle callback does */
        for (size_t k = 0; k < ntris; k++)
            if (cast_tri(sphere, &s[i], shapes[k], simplex, epa, &best, full, &out[i]))
                out[i].index = (uint32_t)k;
        hits += out[i].t <= 1.0f;
    }
    for (size_t k = 0; k < ntris; k++)
        shapes[k].~btTriangleShape();
    btAlignedFree(shapes);
    return hits;
}
#endif

/* ---- oriented boxes (toi_bench_boxes) ---- */

/* Box i of a at the start and the end of the step: the centre moved by v, the orientation
   turned by the rotation vector w (world frame): q1 = exp(w / 2) * q0. */
static void box_ends(const toi_boxes *b, size_t i, btTransform *from, btTransform *to)
{
    const btQuaternion q0(b->qx[i], b->qy[i], b->qz[i], b->qw[i]);
    btQuaternion q1 = q0;
    if (b->wx) {
        const btVector3 w(b->wx[i], b->wy[i], b->wz[i]);
        const btScalar angle = w.length();
        if (angle > 0)
            q1 = btQuaternion(w / angle, angle) * q0;
    }
    const btVector3 c(b->x[i], b->y[i], b->z[i]), v(b->vx[i], b->vy[i], b->vz[i]);
    *from = btTransform(q0, c);
    *to = btTransform(q1, c + v);
}

extern "C" size_t bullet_boxes(size_t n, const toi_boxes *a, const toi_boxes *b, float *t)
{
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        /* no collision margin: Bullet's default (0.04) is taken out of the half extents and
           rounds the corners, which would move the contact */
        btBoxShape sa(btVector3(a->hx[i], a->hy[i], a->hz[i]));
        btBoxShape sb(btVector3(b->hx[i], b->hy[i], b->hz[i]));
        sa.setMargin(0.0f);
        sb.setMargin(0.0f);
        btTransform fa, ta, fb, tb;
        box_ends(a, i, &fa, &ta);
        box_ends(b, i, &fb, &tb);
        btContinuousConvexCollision cast(&sa, &sb, &simplex, &epa);
        btConvexCast::CastResult res;
        res.m_fraction = 1.0f + FLT_EPSILON; /* accept t = 1 */
        if (cast.calcTimeOfImpact(fa, ta, fb, tb, res) && res.m_fraction <= 1.0f) {
            t[i] = res.m_fraction;
            hits++;
        } else {
            t[i] = INFINITY;
        }
    }
    return hits;
}

/* ---- capsules against triangles (toi_bench_capsules) ---- */

/* Capsule i at the start and the end of the step: a btCapsuleShape lies along its local y
   axis, centred, so y is turned onto p1 - p0 and the centre put at the segment's midpoint. */
static void capsule_ends(const toi_capsules *c, size_t i, btTransform *from, btTransform *to,
                         btScalar *len)
{
    const btVector3 p0(c->x0[i], c->y0[i], c->z0[i]), p1(c->x1[i], c->y1[i], c->z1[i]);
    const btVector3 d = p1 - p0;
    *len = d.length();
    btQuaternion q = btQuaternion::getIdentity();
    if (*len > 0)
        q = shortestArcQuat(btVector3(0, 1, 0), d / *len);
    const btVector3 mid = (p0 + p1) / 2, v(c->vx[i], c->vy[i], c->vz[i]);
    *from = btTransform(q, mid);
    *to = btTransform(q, mid + v);
}

extern "C" size_t bullet_capsules_triangles(size_t n, const toi_capsules *c,
                                            const toi_triangles *tri, float *t)
{
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btTransform still;
    still.setIdentity();
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        btTransform from, to;
        btScalar len;
        capsule_ends(c, i, &from, &to, &len);
        btCapsuleShape cap(c->r[i], len);
        btTriangleShape shape(btVector3(tri->ax[i], tri->ay[i], tri->az[i]),
                              btVector3(tri->bx[i], tri->by[i], tri->bz[i]),
                              btVector3(tri->cx[i], tri->cy[i], tri->cz[i]));
        shape.setMargin(0.0f);
        btContinuousConvexCollision cast(&cap, &shape, &simplex, &epa);
        btConvexCast::CastResult res;
        res.m_fraction = 1.0f + FLT_EPSILON; /* accept t = 1 */
        t[i] = INFINITY;
        if (cast.calcTimeOfImpact(from, to, still, still, res) && res.m_fraction <= 1.0f) {
            t[i] = res.m_fraction;
            hits++;
        }
    }
    return hits;
}
