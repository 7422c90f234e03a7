from _harness import run_check


def consume(m):
    return m.calibrate(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.calibration_error(wp.array(p, dtype=wp.float64)).numpy()[0]


run_check(__file__, "irrigation_line_headloss.py", consume, objective)
