from _harness import run_check


def consume(m):
    return m.tune(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.Room(steps=50, setpoint=30.0, outside=20.0, start=24.0).cost(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "greenhouse_heater_tuning.py", consume, objective)
