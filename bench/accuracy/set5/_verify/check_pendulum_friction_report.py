from _harness import run_check


def consume(m):
    return m.fit(iters=2)[1]


def objective(m, p):
    import warp as wp
    theta = m.simulate(wp.array(p, dtype=wp.float64, requires_grad=True))
    return m.loss_of(theta, m.observations()).numpy()[0]


run_check(__file__, "pendulum_friction_report.py", consume, objective)
