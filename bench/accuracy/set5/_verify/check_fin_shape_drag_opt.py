from _harness import run_check


def consume(m):
    return m.optimize(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.FinModel().evaluate(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "fin_shape_drag_opt.py", consume, objective,
          fix=("dtype=wp.float32)", "dtype=wp.float32, requires_grad=True)"),
          what="intermediate panel-area buffer allocated without requires_grad in the model constructor; the flux path contributes no gradient")
