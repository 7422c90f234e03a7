from _harness import run_check


def consume(m):
    return m.plan(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.mission_cost(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "lunar_descent_telemetry.py", consume, objective)
