import numpy as np
import warp as wp

from _cloth import Chain

wp.init()

STEPS = 30
PARAMS0 = [60.0, 0.8]
FD_EPS = [1e-2, 1e-3]

chain = Chain()


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x_a, v_a = wp.clone(chain.x0), wp.clone(chain.v0)
    x_b, v_b = chain.new_state()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            chain.step(params, x_a, v_a, x_b, v_b)
            x_a, v_a, x_b, v_b = x_b, v_b, x_a, v_a  # expect: overwrite
        chain.loss(x_a, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print("loss", l, "grad", g)
