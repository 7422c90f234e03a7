from _harness import run_check


def consume(m):
    return m.tune(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.Room().cost(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "thermostat_gain_tuning.py", consume, objective,
          fix=("loss.grad.zero_()", "gains.grad.zero_()"),
          what="after each update the loss seed gradient is zeroed instead of the gains gradient, so gains.grad accumulates across iterations")
