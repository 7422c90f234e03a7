from _harness import run_check


def consume(m):
    return m.schedule(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.Orchard().cost(wp.array(p, dtype=wp.float64)).numpy()[0]


run_check(__file__, "orchard_irrigation_schedule.py", consume, objective)
