from _harness import run_check


def consume(m):
    return m.rebalance(iters=2)[1]


def objective(m, p):
    import numpy as np
    import warp as wp
    budget = wp.array(np.full(m.NA, 0.03), dtype=wp.float64)
    return m.budget_loss(wp.array(p, dtype=wp.float64, requires_grad=True), m.make_portfolio(m.covariance(), wp.zeros(m.NA, dtype=wp.float64, requires_grad=True)), budget).numpy()[0]


run_check(__file__, "equal_risk_portfolio.py", consume, objective)
