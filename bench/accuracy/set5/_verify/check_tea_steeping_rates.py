from _harness import run_check


def consume(m):
    return m.fit(iters=2)[1]


def objective(m, p):
    import warp as wp
    t, amb, obs = m.data()
    return m.misfit(wp.array(p, dtype=wp.float64, requires_grad=True), t, amb, obs).numpy()[0]


run_check(__file__, "tea_steeping_rates.py", consume, objective)
