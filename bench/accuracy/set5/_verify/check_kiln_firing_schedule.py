from _harness import run_check


def consume(m):
    return m.tune(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.Kiln().cost(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "kiln_firing_schedule.py", consume, objective, fix=("tape.zero()", "tape.reset()"),
          what="persistent tape over persistent buffers is zeroed but never reset: backward replays every earlier iteration's launches against the shared loss buffer")
