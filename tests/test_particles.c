/* test_particles.c - the particle example in small: no sphere escapes its container, the
   discrete baseline does let some escape, and every backend ends in the same state; the
   same with particles poured onto a real model (Debian's assimp-testmodels) */
#include "test.h"

#if defined(TOI_TEST_PARTICLES)
#include "sim.h"

#include <math.h>

static sim_params small_params(void)
{
    sim_params p = sim_default_params();
    p.n = 3000;
    p.radius = 0.008f;
    p.speed = 8.0f;
    p.subdiv = 3; /* 1280 triangles */
    p.seed = 6;
    return p;
}
#define SMALL_STEPS 100

static uint64_t scalar_hash;

static void case_run(const void *ctx)
{
    const t_impl *im = ctx;
    const sim_params prm = small_params();
    sim s;
    CHECK(toi_set_backend(im->k->id) == TOI_OK, "cannot force %s", im->name);
    if (sim_init(&s, &prm)) {
        CHECK(0, "out of memory");
        return;
    }
    double travel = 0.0;
    for (int step = 0; step < SMALL_STEPS; step++) {
        sim_step(&s, 1);
        sim_check_escapes(&s);
        for (size_t i = 0; i < prm.n; i++)
            travel += sqrt((double)((s.ux[i] * s.ux[i] + s.uy[i] * s.uy[i]) + s.uz[i] * s.uz[i]));
    }
    CHECK(toi_last_backend() == im->k->id, "forced %s but %s ran", im->name,
          toi_backend_name(toi_last_backend()));
    travel = travel / ((double)prm.n * SMALL_STEPS) * prm.dt / (2.0 * prm.radius);
    /* the regime where a discrete test tunnels: several diameters a step, many contacts */
    CHECK(travel > 2.5, "mean travel only %.2f diameters a step", travel);
    /* (with the old uniform grid this counted 300000+ sphere-triangle pair queries; through
       the mesh, the triangles its leaves test) */
    CHECK(s.cost.np > 300000 && s.responses > 5000, "few contacts: %llu triangle tests, "
          "%llu responses", (unsigned long long)s.cost.np, (unsigned long long)s.responses);
    CHECK(s.nescaped == 0, "%zu of %zu spheres escaped", s.nescaped, prm.n);
    uint64_t h = sim_hash(&s);
    if (im->k->id == TOI_BACKEND_SCALAR)
        scalar_hash = h;
    else
        CHECK(h == scalar_hash, "final state hash %016llx, scalar %016llx",
              (unsigned long long)h, (unsigned long long)scalar_hash);
    sim_free(&s);
}

/* The same scene with the overlap test after each whole step must lose spheres: otherwise
   the scene would not show that the sweeps matter. */
static void case_discrete(const void *ctx)
{
    (void)ctx;
    const sim_params prm = small_params();
    sim s;
    if (sim_init(&s, &prm)) {
        CHECK(0, "out of memory");
        return;
    }
    for (int step = 0; step < SMALL_STEPS; step++) {
        sim_step(&s, 0);
        sim_check_escapes(&s);
    }
    CHECK(s.nescaped > prm.n / 10, "only %zu of %zu spheres escaped the discrete test",
          s.nescaped, prm.n);
    sim_free(&s);
}

/* Particles poured onto a real model (a mesh no one here made): every backend the same
   final state, none whose centre crossed a triangle, while the discrete baseline's do. */
#define MODEL "/usr/share/assimp/models/STL/Wuson.stl"
static uint64_t model_hash;

static sim_params model_params(void)
{
    sim_params p = sim_default_params();
    p.n = 2000;
    p.model = MODEL;
    p.model_up = 1;
    p.restitution = 0.3f;
    p.friction = 0.3f;
    p.seed = 9;
    return p;
}

static void case_model(const void *ctx)
{
    const t_impl *im = ctx;
    const sim_params prm = model_params();
    sim s, d;
    CHECK(toi_set_backend(im->k->id) == TOI_OK, "cannot force %s", im->name);
    if (sim_init(&s, &prm) || sim_init(&d, &prm)) {
        CHECK(0, "cannot set the scene up");
        return;
    }
    for (int step = 0; step < 40; step++) {
        sim_step(&s, 1);
        sim_check_escapes(&s);
        sim_step(&d, 0);
        sim_check_escapes(&d);
    }
    CHECK(s.mesh.ntris == 3732, "%zu triangles read from " MODEL, s.mesh.ntris);
    CHECK(s.responses > 1000, "only %llu responses", (unsigned long long)s.responses);
    CHECK(s.nescaped == 0, "%zu of %zu swept spheres crossed the model", s.nescaped, prm.n);
    CHECK(d.nescaped > prm.n / 10, "only %zu of %zu discrete spheres crossed the model",
          d.nescaped, prm.n);
    uint64_t h = sim_hash(&s);
    if (im->k->id == TOI_BACKEND_SCALAR)
        model_hash = h;
    else
        CHECK(h == model_hash, "final state hash %016llx, scalar %016llx",
              (unsigned long long)h, (unsigned long long)model_hash);
    sim_free(&s);
    sim_free(&d);
}

void group_particles(void)
{
    char name[128];
    /* the simulation calls the public API, so it runs on the backends dispatch offers */
    for (int i = 0; i < t_nimpls; i++) {
        if (!t_impls[i].via_api)
            continue;
        snprintf(name, sizeof name, "particles/no escapes, same state/%s", t_impls[i].name);
        t_run(name, case_run, &t_impls[i]);
    }
    t_run("particles/discrete baseline escapes", case_discrete, NULL);
    FILE *fp = fopen(MODEL, "rb");
    if (!fp) {
        printf("skip particles on a real model: " MODEL " is missing (Debian's "
               "assimp-testmodels)\n");
        return;
    }
    fclose(fp);
    for (int i = 0; i < t_nimpls; i++) {
        if (!t_impls[i].via_api)
            continue;
        snprintf(name, sizeof name, "particles/poured onto a real model, none crosses it/%s",
                 t_impls[i].name);
        t_run(name, case_model, &t_impls[i]);
    }
}
#else
void group_particles(void)
{
    printf("skip particles (the triangle queries are not in this build)\n");
}
#endif
