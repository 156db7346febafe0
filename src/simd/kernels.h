/* simd/kernels.h - a SIMD backend's kernel table: declares the kernels its files define and
   fills toi_kernels_<isa> with the kernels common.h declares. Included by src/<isa>/kernels.c after that backend's vec.h. */
#include "common.h"

#define TOI_STR__(x) #x
#define TOI_STR_(x) TOI_STR__(x)

#define TOI_TABLE__(isa) toi_kernels_##isa
#define TOI_TABLE_(isa) TOI_TABLE__(isa)

const toi_kernels TOI_TABLE_(TOI_ISA) = {
    .id = TOI_BACKEND_ID,
    .name = TOI_STR_(TOI_ISA),
    .width = VW,
    .spheres = TOI_FN(sweep_spheres),
    .sphere_pairs = TOI_FN(sweep_sphere_pairs),
    .spheres_plane = TOI_FN(sweep_spheres_plane),
    .respond = TOI_FN(respond),
    .spheres_triangles = TOI_FN(sweep_spheres_triangles),
    .sphere_triangle_pairs = TOI_FN(sweep_sphere_triangle_pairs),
    .spheres_triangle_set = TOI_FN(sweep_spheres_triangle_set),
    .spheres_mesh = TOI_FN(sweep_spheres_mesh),
    .capsules_spheres = TOI_FN(sweep_capsules_spheres),
    .capsules_plane = TOI_FN(sweep_capsules_plane),
    .capsules = TOI_FN(sweep_capsules),
    .capsule_pairs = TOI_FN(sweep_capsule_pairs),
    .capsules_triangles = TOI_FN(sweep_capsules_triangles),
    .capsules_triangle_set = TOI_FN(sweep_capsules_triangle_set),
    .capsules_mesh = TOI_FN(sweep_capsules_mesh),
    .boxes = TOI_FN(sweep_boxes),
    .box_pairs = TOI_FN(sweep_box_pairs),
};
