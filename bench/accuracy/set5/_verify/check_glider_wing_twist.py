from _harness import run_check


def consume(m):
    return m.optimize(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.wing_loss(wp.array(p, dtype=wp.float64), wp.zeros(m.NSPAN, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "glider_wing_twist.py", consume, objective)
