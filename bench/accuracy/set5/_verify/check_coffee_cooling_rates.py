from _harness import run_check


def consume(m):
    return m.fit(iters=1)[0]


def objective(m, p):
    import warp as wp
    t, amb, obs = m.data()
    return m.misfit(wp.array(p, dtype=wp.float64, requires_grad=True), t, amb, obs).numpy()[0]


run_check(__file__, "coffee_cooling_rates.py", consume, objective, fix=(", record_tape=False)", ")"),
          what="the parameter transform k = exp(log_k) is launched with record_tape=False, so the tape never sees the dependence on log_k")
