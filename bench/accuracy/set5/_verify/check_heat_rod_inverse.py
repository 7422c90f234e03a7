from _harness import run_check


def consume(m):
    return m.fit(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.Rod().loss(wp.array(p, dtype=wp.float64, requires_grad=True)).numpy()[0]


run_check(__file__, "heat_rod_inverse.py", consume, objective,
          fix=("u_a, u_b = u_b, u_a", "u_a, u_b = u_b, wp.zeros_like(u_b)"),
          what="ping-pong swap A->B->A on one tape; diffusion adjoint needs u (conductivity depends on u) but u_a is overwritten two steps later")
