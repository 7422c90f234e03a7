import numpy as np
import warp as wp

from _block3d import N, heat3d_step, source_mask

wp.init()

STEPS = 30
PARAMS0 = [1.5]
FD_EPS = 1e-2
TARGET = 0.35


@wp.kernel
def surface_mean(T: wp.array3d(dtype=float), target: float, loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = T[i, j, N - 1] - target
    wp.atomic_add(loss, 0, d * d / float(N * N))


src = wp.array(source_mask(), dtype=float)


def evaluate(p):
    power = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    T = wp.zeros((N, N, N), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            T_next = wp.zeros_like(T)
            wp.launch(heat3d_step, dim=(N, N, N), inputs=[T, src, power], outputs=[T_next])
            T = T_next
        wp.launch(surface_mean, dim=(N, N), inputs=[T, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), power.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
