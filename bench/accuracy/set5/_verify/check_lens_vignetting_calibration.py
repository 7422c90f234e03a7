from _harness import run_check


def consume(m):
    return m.calibrate(iters=2)[1]


def objective(m, p):
    import warp as wp
    r, img = m.make_data()
    return m.objective(wp.array(p, dtype=wp.float64, requires_grad=True), r, img).numpy()[0]


run_check(__file__, "lens_vignetting_calibration.py", consume, objective,
          fix=("scratch.zero_()", "scratch = wp.zeros_like(scratch)"),
          what="scratch.zero_() reuses a buffer whose values the divide adjoint (img/gain) still needs; the slope pass then overwrites it")
