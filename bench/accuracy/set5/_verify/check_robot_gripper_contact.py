from _harness import run_check


def consume(m):
    return m.identify(iters=1)[0]


def objective(m, p):
    import warp as wp
    pen, meas = m.readings()
    return m.force_misfit(wp.array(p, dtype=wp.float64), pen, meas).numpy()[0]


run_check(__file__, "robot_gripper_contact.py", consume, objective,
          fix=("f[2] = f[2] * normal_scale", "f = wp.vec3(f[0], f[1], f[2] * normal_scale)"),
          what="a component of the local vec3 f is reassigned from itself in a wp.func; the adjoint of the reassignment loses/duplicates the k contribution")
