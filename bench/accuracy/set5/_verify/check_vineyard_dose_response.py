from _harness import run_check


def consume(m):
    return m.fit(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.errors(wp.array(p, dtype=wp.float64), m.plots()).numpy().mean()


run_check(__file__, "vineyard_dose_response.py", consume, objective)
