from _harness import run_check


def consume(m):
    return m.aim(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.error_of(m.fly(wp.array(p, dtype=wp.vec3d, requires_grad=True))).numpy()[0]


run_check(__file__, "sprinkler_nozzle_preview.py", consume, objective)
