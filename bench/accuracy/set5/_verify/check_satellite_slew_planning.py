from _harness import run_check


def consume(m):
    return m.plan(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.simulate(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "satellite_slew_planning.py", consume, objective)
