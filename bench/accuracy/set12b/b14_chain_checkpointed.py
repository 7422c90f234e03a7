import numpy as np
import warp as wp

from _cloth import Chain

wp.init()

HALF = 20
PARAMS0 = [55.0, 0.7]
FD_EPS = [1e-2, 1e-3]

chain = Chain(n=10)


def rollout(params, x, v, steps):
    for _ in range(steps):
        x_next, v_next = chain.new_state()
        chain.step(params, x, v, x_next, v_next)
        x, v = x_next, v_next
    return x, v


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    tape1 = wp.Tape()
    with tape1:
        x_mid, v_mid = rollout(params, chain.x0, chain.v0, HALF)
    # checkpoint: the second half starts from copies, the first tape can be replayed later
    x_cp, v_cp = wp.clone(x_mid), wp.clone(v_mid)

    tape2 = wp.Tape()
    with tape2:
        x_end, _ = rollout(params, x_cp, v_cp, HALF)
        chain.loss(x_end, loss)
    tape2.backward(loss)
    tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_mid.grad})  # expect: seeding
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
