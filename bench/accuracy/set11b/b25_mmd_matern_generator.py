"""Train a two-parameter Gaussian generator (mean vector, log-scale) by
minimising the squared maximum mean discrepancy to a target sample, with a
Matern-3/2 kernel."""
import numpy as np
import warp as wp

wp.config.quiet = True

NX = 24
NY = 30
ELL = 0.8
rng = np.random.default_rng(2)
BASE = rng.normal(size=(NX, 2)).astype(np.float32)
Y = (rng.normal(size=(NY, 2)) * 0.7 + np.array([1.0, -0.5])).astype(np.float32)
PARAMS0 = [0.3, 0.2, 0.0]   # mean x, mean y, log scale


@wp.func
def matern32(a: wp.vec2, b: wp.vec2, ell: float):
    d = a - b
    r = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
    z = 1.7320508 * r / ell
    return (1.0 + z) * wp.exp(-z)


@wp.kernel
def generate(base: wp.array(dtype=wp.vec2), theta: wp.array(dtype=float), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x[i] = wp.vec2(theta[0], theta[1]) + wp.exp(theta[2]) * base[i]


@wp.kernel
def mmd_terms(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=wp.vec2), ell: float, mmd: wp.array(dtype=float)):
    i, j = wp.tid()
    nx = x.shape[0]
    ny = y.shape[0]
    if j < nx:
        wp.atomic_add(mmd, 0, matern32(x[i], x[j], ell) / float(nx * nx))
    if j < ny:
        wp.atomic_add(mmd, 0, -2.0 * matern32(x[i], y[j], ell) / float(nx * ny))


@wp.kernel
def yy_term(y: wp.array(dtype=wp.vec2), ell: float, mmd: wp.array(dtype=float)):
    i, j = wp.tid()
    n = y.shape[0]
    wp.atomic_add(mmd, 0, matern32(y[i], y[j], ell) / float(n * n))


def evaluate(p):
    theta = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    base = wp.array(BASE, dtype=wp.vec2)
    y = wp.array(Y, dtype=wp.vec2)
    x = wp.zeros(NX, dtype=wp.vec2, requires_grad=True)
    mmd = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(generate, dim=NX, inputs=[base, theta], outputs=[x])
        wp.launch(mmd_terms, dim=(NX, max(NX, NY)), inputs=[x, y, ELL], outputs=[mmd])
        wp.launch(yy_term, dim=(NY, NY), inputs=[y, ELL], outputs=[mmd])
    tape.backward(mmd)
    return float(mmd.numpy()[0]), theta.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(25):
        l, g = evaluate(p)
        p -= 1.0 * g
        if it % 5 == 0:
            print(f"iter {it} MMD^2 {l:.5f} mean {np.round(p[:2], 3)} scale {np.exp(p[2]):.3f}")
