/* scalar/kernels.c - the scalar reference backend's kernel table */
#include "scalar.h"

const toi_kernels toi_kernels_scalar = {
    .id = TOI_BACKEND_SCALAR,
    .name = "scalar",
    .width = 1,
    .spheres = toi_scalar_sweep_spheres,
    .sphere_pairs = toi_scalar_sweep_sphere_pairs,
    .spheres_plane = toi_scalar_sweep_spheres_plane,
    .respond = toi_scalar_respond,
    .spheres_triangles = toi_scalar_sweep_spheres_triangles,
    .sphere_triangle_pairs = toi_scalar_sweep_sphere_triangle_pairs,
    .spheres_triangle_set = toi_scalar_sweep_spheres_triangle_set,
    .spheres_mesh = toi_scalar_sweep_spheres_mesh,
    .capsules_spheres = toi_scalar_sweep_capsules_spheres,
    .capsules_plane = toi_scalar_sweep_capsules_plane,
    .capsules = toi_scalar_sweep_capsules,
    .capsule_pairs = toi_scalar_sweep_capsule_pairs,
    .capsules_triangles = toi_scalar_sweep_capsules_triangles,
    .capsules_triangle_set = toi_scalar_sweep_capsules_triangle_set,
    .capsules_mesh = toi_scalar_sweep_capsules_mesh,
    .boxes = toi_scalar_sweep_boxes,
    .box_pairs = toi_scalar_sweep_box_pairs,
};
