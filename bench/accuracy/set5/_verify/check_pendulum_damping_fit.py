from _harness import run_check


def consume(m):
    return m.fit(iters=1)[0]


def objective(m, p):
    import warp as wp
    theta = m.simulate(wp.array(p, dtype=wp.float64, requires_grad=True))
    return m.loss_of(theta, m.observations()).numpy()[0]


run_check(__file__, "pendulum_damping_fit.py", consume, objective,
          fix=("traj_np -= traj_np.mean(axis=1, keepdims=True)", "traj_np = traj_np - traj_np.mean(axis=1, keepdims=True)"),
          what="in-place centering through a CPU numpy view of theta between recording and backward; the misfit adjoint reads the modified trajectory")
