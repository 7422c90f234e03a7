# correct: a fresh tape is created every iteration and tape.zero() is called on it, but only after backward and the optimizer step, when the tape knows the parameter gradient and zeroes it for the next iteration
import numpy as np
import warp as wp
from warp.optim import Adam

from _cloth import Chain

wp.init()

STEPS = 30
ITERS = 4
P_INIT = [50.0, 0.6]
chain = Chain()


def record_loss(params):
    x, v = chain.x0, chain.v0
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    for _ in range(STEPS):
        x_next, v_next = chain.new_state()
        chain.step(params, x, v, x_next, v_next)
        x, v = x_next, v_next
    chain.loss(x, loss)
    return loss


def objective(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    return float(record_loss(params).numpy()[0])


def train(iters=ITERS, lr=2.0):
    params = wp.array(np.array(P_INIT, dtype=np.float32), dtype=float, requires_grad=True)
    opt = Adam([params], lr=lr)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = record_loss(params)
        tape.backward(loss)
        history.append((params.numpy().copy(), params.grad.numpy().copy(), float(loss.numpy()[0])))
        opt.step([params.grad])
        tape.zero()
    return history


def verify():
    p, g, _ = train()[-1]
    eps = np.array([1e-2, 1e-3])
    fd = np.array([(objective(p + eps[k] * np.eye(2)[k]) - objective(p - eps[k] * np.eye(2)[k])) / (2 * eps[k])
                   for k in range(2)])
    return g, fd


if __name__ == "__main__":
    for p, g, l in train():
        print(p, g, l)
