from _harness import run_check


def consume(m):
    return m.relax(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.swarm_energy(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "boids_separation.py", consume, objective)
