from _harness import run_check


def consume(m):
    return m.optimize(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.FinModel().evaluate(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "fin_shape_lift_opt.py", consume, objective)
