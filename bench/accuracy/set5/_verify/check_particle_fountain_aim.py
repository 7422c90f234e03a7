from _harness import run_check


def consume(m):
    return m.aim(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.error_of(m.fly(wp.array(p, dtype=wp.vec3d, requires_grad=True))).numpy()[0]


run_check(__file__, "particle_fountain_aim.py", consume, objective,
          fix=("_viewer.project_to_screen(x_final, x_final)", "_viewer.project_to_screen(x_final, screen)"),
          what="debug projection helper launched between recording and backward writes screen coordinates into the taped final positions")
