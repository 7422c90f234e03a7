from _harness import run_check


def consume(m):
    return m.control(iters=2)[1]


def objective(m, p):
    import warp as wp
    return m.Farm().cost(wp.array(p, dtype=wp.float64)).numpy()[0]


run_check(__file__, "wind_turbine_power_target.py", consume, objective, fix=("self.loss.zero_()", "self.total.zero_()"),
          what="the power accumulator (atomic_add) is never reset between iterations; the assigned loss is zeroed instead, so total and its squared error include old power")
