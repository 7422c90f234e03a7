# correct: the pairwise distance includes the self pairs (d = 0), but it is taken with wp.length, whose adjoint is guarded at the zero vector, so no NaN reaches the gradient.
"""Fit a shifted and scaled Gaussian sample to a target sample by minimising
the energy distance 2 E|X - Y| - E|X - X'| - E|Y - Y'|."""
import numpy as np
import warp as wp

wp.config.quiet = True

NX = 24
NY = 24
rng = np.random.default_rng(43)
BASE = rng.normal(size=(NX, 2)).astype(np.float32)
Y = (rng.normal(size=(NY, 2)) * np.array([0.6, 1.1]) + np.array([-0.8, 0.4])).astype(np.float32)
PARAMS0 = [0.2, -0.1, 0.3]


@wp.kernel
def push(base: wp.array(dtype=wp.vec2), th: wp.array(dtype=float), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x[i] = wp.vec2(th[0], th[1]) + wp.exp(th[2]) * base[i]


@wp.kernel
def energy_terms(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=wp.vec2), e: wp.array(dtype=float)):
    i, j = wp.tid()
    n = float(x.shape[0])
    m = float(y.shape[0])
    wp.atomic_add(e, 0, 2.0 * wp.length(x[i] - y[j]) / (n * m))
    wp.atomic_sub(e, 0, wp.length(x[i] - x[j]) / (n * n))


def evaluate(p):
    th = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.zeros(NX, dtype=wp.vec2, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(push, dim=NX, inputs=[wp.array(BASE, dtype=wp.vec2), th], outputs=[x])
        wp.launch(energy_terms, dim=(NX, NY), inputs=[x, wp.array(Y, dtype=wp.vec2)], outputs=[e])
    tape.backward(e)
    # the E|Y - Y'| term is a constant; it is left out of the objective
    return float(e.numpy()[0]), th.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.2 * g
        if it % 10 == 0:
            print(f"iter {it} energy distance (up to a constant) {l:.4f} shift {np.round(p[:2], 3)}")
