/* textbook_geom.h - the plain vector and triangle helpers of the textbook peers
   (textbook_tri.c, textbook_capsule.c): floats, array of structs, written as a game programmer
   writes them. Built only into the benchmarks. */
#ifndef TOI_BENCH_TEXTBOOK_GEOM_H
#define TOI_BENCH_TEXTBOOK_GEOM_H

#include <math.h>

typedef struct vec3 {
    float x, y, z;
} vec3;

static inline vec3 sub(vec3 a, vec3 b)
{
    return (vec3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static inline vec3 add(vec3 a, vec3 b)
{
    return (vec3){a.x + b.x, a.y + b.y, a.z + b.z};
}
static inline vec3 scale(vec3 a, float k)
{
    return (vec3){a.x * k, a.y * k, a.z * k};
}
static inline float dot(vec3 a, vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline vec3 cross(vec3 a, vec3 b)
{
    return (vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline float clamp01(float s)
{
    return s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
}

typedef struct triangle {
    vec3 V[3], E[3]; /* vertices; edge k runs from V[k] to V[k + 1] */
    vec3 n;          /* unit front normal, when the triangle has area */
    vec3 m[3];       /* in-plane normals of the edges, pointing inward */
    int has_face;
} triangle;

static inline int inside(const triangle *T, vec3 x)
{
    for (int k = 0; k < 3; k++)
        if (dot(T->m[k], sub(x, T->V[k])) < 0.0f)
            return 0;
    return 1;
}

/* The closest point of segment p + s e (s in [0, 1]) to x. */
static inline vec3 closest_on_segment(vec3 x, vec3 p, vec3 e)
{
    float ee = dot(e, e);
    if (ee <= 0.0f)
        return p;
    return add(p, scale(e, clamp01(dot(sub(x, p), e) / ee)));
}

/* The closest point of the triangle to x: the foot on the face when x projects inside it,
   else the nearest point of the three edges. */
static inline vec3 closest_on_triangle(const triangle *T, vec3 x)
{
    if (T->has_face && inside(T, x))
        return sub(x, scale(T->n, dot(T->n, sub(x, T->V[0]))));
    vec3 best = T->V[0];
    float bd = INFINITY;
    for (int k = 0; k < 3; k++) {
        vec3 q = closest_on_segment(x, T->V[k], T->E[k]);
        vec3 d = sub(x, q);
        if (dot(d, d) < bd)
            bd = dot(d, d), best = q;
    }
    return best;
}

#endif
