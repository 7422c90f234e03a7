from _harness import run_check


def consume(m):
    return m.solve(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.reach_objective(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "planar_arm_reach.py", consume, objective,
          fix=("wp.empty_like(targets)", "wp.empty_like(targets, requires_grad=True)"),
          what="tips allocated with empty_like of a constant target array, so it inherits requires_grad=False; only the angle regularizer gradient survives")
