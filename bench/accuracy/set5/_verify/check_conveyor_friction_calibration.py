from _harness import run_check


def consume(m):
    return m.identify(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.misfit(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "conveyor_friction_calibration.py", consume, objective)
