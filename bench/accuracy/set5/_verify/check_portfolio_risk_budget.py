from _harness import run_check


def consume(m):
    return m.rebalance(iters=1)[0]


def objective(m, p):
    import numpy as np
    import warp as wp
    budget = wp.array(np.full(m.NA, 0.03), dtype=wp.float64)
    return m.budget_loss(wp.array(p, dtype=wp.float64, requires_grad=True), m.make_portfolio(m.covariance()), budget).numpy()[0]


run_check(__file__, "portfolio_risk_budget.py", consume, objective,
          fix=("wp.zeros(NA, dtype=wp.float32)", "wp.zeros(NA, dtype=wp.float32, requires_grad=True)"),
          what="weights array held in a @wp.struct allocated without requires_grad; gradient to the logits is cut")
