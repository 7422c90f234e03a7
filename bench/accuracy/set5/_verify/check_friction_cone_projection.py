from _harness import run_check


def consume(m):
    return m.identify(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.misfit(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "friction_cone_projection.py", consume, objective,
          fix=("adj_ret * x / (x * x + eps)", "adj_ret * x / wp.sqrt(x * x + eps)"),
          what="custom adjoint of smooth_abs uses x/(x^2+eps) instead of x/sqrt(x^2+eps)")
