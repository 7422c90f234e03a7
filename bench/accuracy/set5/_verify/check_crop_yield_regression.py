from _harness import run_check


def consume(m):
    return m.fit(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.errors(wp.array(p, dtype=wp.float64), m.plots()).numpy().mean()


run_check(__file__, "crop_yield_regression.py", consume, objective,
          fix=("wp.ones(NPLOT, dtype=wp.float32)", "wp.full(NPLOT, 1.0 / NPLOT, dtype=wp.float32)"),
          what="objective is the mean squared error but the per-plot errors are seeded with ones: the gradient is of the sum, NPLOT times too large")
