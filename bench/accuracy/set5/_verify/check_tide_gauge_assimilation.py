from _harness import run_check


def consume(m):
    return m.assimilate(frames=1)[0]


def objective(m, p):
    import warp as wp
    t_np, obs_np = m.first_frame()
    return m.model_loss(wp.array(p, dtype=wp.float64), wp.array(t_np, dtype=wp.float64),
                        wp.array(obs_np, dtype=wp.float64)).numpy()[0]


run_check(__file__, "tide_gauge_assimilation.py", consume, objective,
          fix=("obs_np += drift", "obs_np = obs_np + drift"),
          what="obs is a zero-copy wp.array over a numpy buffer; obs_np += drift mutates it between recording and backward, so the misfit adjoint uses next frame's readings")
