from _harness import run_check


def consume(m):
    return m.fit(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.Rod().loss(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "heat_rod_linear_smoother.py", consume, objective)
