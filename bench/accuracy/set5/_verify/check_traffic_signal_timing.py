from _harness import run_check


def consume(m):
    return m.optimize(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.total_delay(wp.array(p[:3], dtype=wp.float64), wp.array(p[3:], dtype=wp.float64)).numpy()[0]


run_check(__file__, "traffic_signal_timing.py", consume, objective, fix=("split.grad.zero_()", "offset.grad.zero_()"),
          what="copy-pasted zeroing line zeroes split.grad twice; offset.grad accumulates over iterations")
