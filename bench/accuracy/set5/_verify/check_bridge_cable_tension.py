from _harness import run_check


def consume(m):
    return m.design(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.total_cost(wp.array(p, dtype=wp.float64), m.deck_load()).numpy()[0]


run_check(__file__, "bridge_cable_tension.py", consume, objective,
          fix=("pretension.grad.numpy()", "pretension.grad.numpy().copy()"),
          what="on CPU grad.numpy() is a view of the gradient buffer; tape.zero() right after clears it, so the update consumes zeros")
