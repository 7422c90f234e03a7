from _harness import run_check


def consume(m):
    return m.calibrate(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.calibration_error(wp.array(p, dtype=wp.float64)).numpy()[0]


run_check(__file__, "pipe_pressure_drop.py", consume, objective, fix=("range(n_seg)", "range(NSEG)"),
          what="multiplicative update p = p * (...) in a loop with a runtime trip count; Warp does not replay dynamic loops, so the adjoint uses the final p")
