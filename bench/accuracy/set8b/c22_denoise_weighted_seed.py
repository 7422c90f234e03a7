# correct: one tape, two energies seeded through grads={...} with the weights of the objective actually minimised
"""Variational denoising: minimise E = E_data + LAM * E_tv with a single backward pass.

Both energies are recorded on one tape; backward is seeded with the objective's
weights so the parameters receive dE/du directly.
"""

import numpy as np
import warp as wp

from _denoise import fidelity, noisy_image, smoothed_tv

wp.config.quiet = True

N = 6
LAM = 0.3


def objective(p, f):
    u = wp.array(np.asarray(p, dtype=np.float32).reshape(N, N), dtype=float, requires_grad=True)
    e_data = wp.zeros(1, dtype=float, requires_grad=True)
    e_tv = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fidelity, dim=(N, N), inputs=[u, f, 1.0 / (N * N)], outputs=[e_data])
        wp.launch(smoothed_tv, dim=(N, N), inputs=[u, 1.0 / (N * N)], outputs=[e_tv])
    tape.backward(grads={e_data: wp.array([1.0], dtype=float), e_tv: wp.array([LAM], dtype=float)})
    energy = float(e_data.numpy()[0] + LAM * e_tv.numpy()[0])
    return energy, u.grad.numpy().ravel().astype(np.float64)


F_NOISY = noisy_image(N)
PARAMS0 = F_NOISY.ravel().astype(np.float64)


def evaluate(p):
    return objective(p, wp.array(F_NOISY, dtype=float))


if __name__ == "__main__":
    f = wp.array(F_NOISY, dtype=float)
    p = PARAMS0.copy()
    for it in range(40):
        e, g = objective(p, f)
        p -= 5.0 * g
        if it % 10 == 0:
            print(f"iter {it:2d} energy {e:.5f}")
    print("denoised row 0", np.round(p.reshape(N, N)[0], 3))
