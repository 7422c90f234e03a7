from _harness import run_check


def consume(m):
    return m.plan(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.simulate(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "quadrotor_attitude_rollout.py", consume, objective,
          fix=("for _ in range(2)]", "for _ in range(steps + 1)]"),
          what="two preallocated quaternion states used as ping-pong inside one tape; normalize/quat-product adjoints read overwritten states")
