from _harness import run_check


def consume(m):
    return m.design(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.total_cost(wp.array(p, dtype=wp.float64), m.deck_load(), span=5.0, limit=0.4).numpy()[0]


run_check(__file__, "suspension_bridge_pretension.py", consume, objective)
