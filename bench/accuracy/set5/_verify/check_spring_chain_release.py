import numpy as np
from _harness import run_check


def consume(m):
    hist = m.optimize(iters=2)
    return hist[1]


def objective(m, p):
    import warp as wp
    v0 = wp.array(p, dtype=wp.vec3d, requires_grad=True)
    return m.rollout(v0).numpy()[0]


run_check(__file__, "spring_chain_release.py", consume, objective,
          fix=("wp.copy(x, x_next)", "x = wp.clone(x_next)"),
          what="wp.copy(x, x_next) inside the tape overwrites positions the spring adjoint (nonlinear in x) needs; the velocity copy is linear and harmless")
