from _harness import run_check, move_line


def consume(m):
    return m.optimize(iters=3)[2]


def objective(m, p):
    import warp as wp
    return m.yield_loss(wp.array(p, dtype=wp.float64), m.sun_path()).numpy()[0]


run_check(__file__, "solar_panel_tilt.py", consume, objective, fix=move_line(2),
          what="gradient copied out before tape.backward() of this iteration, so each update uses the previous iteration's gradient (fix: move the read after backward)")
