# correct: two objectives on two tapes; each gradient is copied right after its own backward() and zeroed before the next
"""Variational denoising with a weighted sum of two energies, each differentiated on its own tape.

The two gradients are kept separately (to monitor their balance) and
combined on the host: g = g_data + LAM * g_tv.
"""

import numpy as np
import warp as wp

from _denoise import fidelity, noisy_image, smoothed_tv

wp.config.quiet = True

N = 6
LAM = 0.3


def energies_and_grad(p, f):
    u = wp.array(np.asarray(p, dtype=np.float32).reshape(N, N), dtype=float, requires_grad=True)
    e_data = wp.zeros(1, dtype=float, requires_grad=True)
    e_tv = wp.zeros(1, dtype=float, requires_grad=True)

    data_tape = wp.Tape()
    with data_tape:
        wp.launch(fidelity, dim=(N, N), inputs=[u, f, 1.0 / (N * N)], outputs=[e_data])
    tv_tape = wp.Tape()
    with tv_tape:
        wp.launch(smoothed_tv, dim=(N, N), inputs=[u, 1.0 / (N * N)], outputs=[e_tv])

    data_tape.backward(e_data)
    g_data = u.grad.numpy().copy()
    data_tape.zero()
    tv_tape.backward(e_tv)
    g_tv = u.grad.numpy().copy()
    tv_tape.zero()

    total = float(e_data.numpy()[0] + LAM * e_tv.numpy()[0])
    return total, (g_data + LAM * g_tv).ravel().astype(np.float64), np.linalg.norm(g_data), np.linalg.norm(g_tv)


F_NOISY = noisy_image(N)
PARAMS0 = F_NOISY.ravel().astype(np.float64)


def evaluate(p):
    return energies_and_grad(p, wp.array(F_NOISY, dtype=float))[:2]


if __name__ == "__main__":
    f = wp.array(F_NOISY, dtype=float)
    p = PARAMS0.copy()
    for it in range(40):
        e, g, nd, nt = energies_and_grad(p, f)
        p -= 5.0 * g
        if it % 10 == 0:
            print(f"iter {it:2d} energy {e:.5f} |g_data| {nd:.4f} |g_tv| {nt:.4f}")
    print("denoised row 0", np.round(p.reshape(N, N)[0], 3))
