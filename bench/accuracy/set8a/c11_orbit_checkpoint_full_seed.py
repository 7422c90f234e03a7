# correct: the recomputed first segment is seeded with the adjoints of both carried state arrays
"""Rendezvous burn with two-segment checkpointing: the first half of the coast is run
without a tape and recomputed on its own tape for the backward pass."""
import numpy as np
import warp as wp

from _orbit import orbit_step, rendezvous, set_state

wp.config.quiet = True
wp.set_device("cpu")

HALF = 60
DT = 0.02
MU = 1.0
DRAG = 0.3
TARGET = wp.vec2d(-0.2, 1.05)


def alloc(n):
    return ([wp.zeros(1, dtype=wp.vec2d, requires_grad=True) for _ in range(n + 1)],
            [wp.zeros(1, dtype=wp.vec2d, requires_grad=True) for _ in range(n + 1)])


def coast(xs, vs, steps):
    for k in range(steps):
        wp.launch(orbit_step, dim=1, inputs=[xs[k], vs[k], wp.float64(MU), wp.float64(DRAG), wp.float64(DT)],
                  outputs=[xs[k + 1], vs[k + 1]])


def grad_checkpointed(p):
    burn = wp.array(p, dtype=wp.float64, requires_grad=True)

    # forward of the first segment, no tape: only its end state is kept
    xs1, vs1 = alloc(HALF)
    wp.launch(set_state, dim=1, inputs=[burn], outputs=[xs1[0], vs1[0]])
    coast(xs1, vs1, HALF)
    x_cp = wp.clone(xs1[-1])
    v_cp = wp.clone(vs1[-1])

    # second segment on its own tape
    xs2, vs2 = alloc(HALF)
    xs2[0], vs2[0] = x_cp, v_cp
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        coast(xs2, vs2, HALF)
        wp.launch(rendezvous, dim=1, inputs=[xs2[-1], TARGET], outputs=[loss])
    tape2.backward(loss)

    # recompute the first segment on a tape and chain the adjoints
    xs1, vs1 = alloc(HALF)
    tape1 = wp.Tape()
    with tape1:
        wp.launch(set_state, dim=1, inputs=[burn], outputs=[xs1[0], vs1[0]])
        coast(xs1, vs1, HALF)
    carried = [(xs1[-1], x_cp), (vs1[-1], v_cp)]
    tape1.backward(grads={out: cp.grad for out, cp in carried})
    return float(loss.numpy()[0]), burn.grad.numpy().copy()


PARAMS0 = np.array([0.05, 1.0])
FD_EPS = 1e-6


def evaluate(p):
    return grad_checkpointed(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = grad_checkpointed(p)
        p = p - 0.02 * g
        print(f"iter {it}: miss distance^2 {l:.5f}  burn={np.round(p, 5)}")
