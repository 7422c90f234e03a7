from _harness import run_check


def consume(m):
    return m.invert(iters=1)[0]


def objective(m, p):
    import warp as wp
    surface, obs = m.inputs()
    return m.misfit(wp.array(p, dtype=wp.float64, requires_grad=True), surface, obs).numpy()[0]


run_check(__file__, "glacier_flow_inversion.py", consume, objective,
          fix=("wp.array([h.numpy().mean()], dtype=wp.float32)", "device_mean(h)"),
          what="the reference thickness is a mean computed on the host from parameter-dependent h; it enters the speed law as a constant")
