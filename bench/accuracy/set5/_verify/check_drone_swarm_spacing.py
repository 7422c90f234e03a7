from _harness import run_check


def consume(m):
    return m.relax(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.swarm_energy(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "drone_swarm_spacing.py", consume, objective, fix=("wp.sqrt(wp.dot(d, d))", "wp.length(d)"),
          what="distance computed as sqrt(dot(d,d)) before the i != j test; the self pair has d = 0 and its sqrt adjoint is 0 * inf = NaN")
