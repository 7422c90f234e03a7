# correct: explicit heat diffusion ping-pongs two buffers on one tape; every step is linear in the buffer it overwrites, so no adjoint needs the old values
"""Explicit 2-D heat diffusion on a plate: gradient of the final temperature mismatch w.r.t. the
initial heater powers."""

import numpy as np
import warp as wp

G = 10
STEPS = 16
ALPHA_DT = 0.2  # diffusivity * dt / h^2 (stable below 0.25)
HEATERS = wp.constant(wp.mat22(2.0, 3.0, 6.0, 7.0))  # two heater cells, one per row
PARAMS0 = np.array([1.0, 0.6])


@wp.kernel
def place_heaters(power: wp.array(dtype=float), T: wp.array2d(dtype=float)):
    i, j = wp.tid()
    t = float(0.0)
    for h in range(2):
        di = float(i) - HEATERS[h, 0]
        dj = float(j) - HEATERS[h, 1]
        t += power[h] * wp.exp(-(di * di + dj * dj) / 2.0)
    T[i, j] = t


@wp.kernel
def diffuse(T: wp.array2d(dtype=float), k: float, T_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    n = T.shape[0]
    c = T[i, j]
    up = T[wp.max(i - 1, 0), j]
    down = T[wp.min(i + 1, n - 1), j]
    left = T[i, wp.max(j - 1, 0)]
    right = T[i, wp.min(j + 1, n - 1)]
    T_out[i, j] = c + k * (up + down + left + right - 4.0 * c)


@wp.kernel
def mismatch(T: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = T[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


def target_field():
    y, x = np.mgrid[0:G, 0:G]
    return (0.3 * np.exp(-((x - 4.0) ** 2 + (y - 5.0) ** 2) / 12.0)).astype(np.float32)


def evaluate(p):
    power = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    front = wp.zeros((G, G), dtype=float, requires_grad=True)
    back = wp.zeros((G, G), dtype=float, requires_grad=True)
    target = wp.array(target_field(), dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(place_heaters, dim=(G, G), inputs=[power], outputs=[front])
        for _ in range(STEPS):
            wp.launch(diffuse, dim=(G, G), inputs=[front, ALPHA_DT], outputs=[back])
            front, back = back, front
        wp.launch(mismatch, dim=(G, G), inputs=[front, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), power.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"mismatch {loss:.5f}  d/dpower {np.round(grad, 5)}")
