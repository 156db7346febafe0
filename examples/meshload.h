/* meshload.h - a small triangle-mesh reader for the examples: STL (binary or ASCII),
   Wavefront OBJ (v and f lines; polygons fanned into triangles) and Terragen heightfields
   (.ter) */
#ifndef MESHLOAD_H
#define MESHLOAD_H

#include <stddef.h>

/* The file's triangles as nine malloc'ed arrays (ax ay az bx by bz cx cy cz, each of *ntris
   floats; free each). 0 on success; -1 with a message in err (a file that cannot be read,
   is not STL, OBJ or Terragen, is malformed or holds no triangle). */
int mesh_load(const char *path, float *tri[9], size_t *ntris, char *err, size_t errlen);

#endif
