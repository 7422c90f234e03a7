# correct: the host update keeps the conductivity gradient as a device copy made right after backward, so tape.reset() zeroing the gradient buffer does not affect the step
import numpy as np
import warp as wp

from _rod import central_fd, rod_loss

wp.init()

ITERS = 4
LR = 0.05


def train(kappa0=(0.12, 0.8)):
    kappa_np = np.array(kappa0, dtype=np.float32)
    tape = wp.Tape()
    trace = []
    for it in range(ITERS):
        kappa = wp.array(kappa_np, dtype=float, requires_grad=True)
        with tape:
            loss = rod_loss(kappa)
        tape.backward(loss)
        grad = wp.clone(kappa.grad)
        tape.reset()
        trace.append((kappa_np.copy(), grad.numpy().copy(), float(loss.numpy()[0])))
        kappa_np = kappa_np - LR * grad.numpy()
    return trace


def verify():
    p, g, _ = train()[-1]
    return g, central_fd(p)


if __name__ == "__main__":
    for row in train():
        print(*row)
