# correct: an untaped launch runs between recording and backward on the last recorded state, but it writes a separate preview buffer and leaves every array the tape read untouched
import numpy as np
import warp as wp

from _sph import Block, advance

wp.init()

STEPS = 12
PARAMS0 = [1.5, 0.8]
FD_EPS = [1e-2, 1e-2]

block = Block()


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x, v = block.initial_state()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x_prev, v_prev = x, v
            x, v = block.step(params, x, v)
        block.loss(x, loss)

    # preview frame: push the last recorded state one extra step forward for the viewer
    f_zero = wp.zeros(block.n, dtype=wp.vec3)
    rho_one = wp.full(block.n, 1.0, dtype=float)
    x_view, v_view = wp.empty_like(x_prev), wp.empty_like(v_prev)
    wp.launch(advance, dim=block.n, inputs=[x_prev, v_prev, f_zero, rho_one, 2.0 * block.dt], outputs=[x_view, v_view])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
