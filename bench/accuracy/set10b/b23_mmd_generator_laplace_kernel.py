"""Train an affine generator x = A z + b by minimising the maximum mean
discrepancy (Laplacian kernel) between generated and target samples.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_GEN = 32
N_TGT = 40
BANDWIDTH = 0.8


@wp.kernel
def generate(z: wp.array(dtype=wp.vec2), A: wp.array(dtype=wp.mat22), b: wp.array(dtype=wp.vec2), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x[i] = A[0] * z[i] + b[0]


@wp.func
def laplace_kernel(p: wp.vec2, q: wp.vec2):
    d = p - q
    r = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
    return wp.exp(-r / BANDWIDTH)


@wp.kernel
def mmd_xx(x: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(loss, 0, laplace_kernel(x[i], x[j]) / float(N_GEN * N_GEN))


@wp.kernel
def mmd_xy(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(loss, 0, -2.0 * laplace_kernel(x[i], y[j]) / float(N_GEN * N_TGT))


rng = np.random.default_rng(12)
Z = wp.array(rng.normal(size=(N_GEN, 2)).astype(np.float32), dtype=wp.vec2)
Y = wp.array((rng.normal(size=(N_TGT, 2)) @ np.array([[1.2, 0.3], [0.0, 0.5]]) + np.array([0.5, -0.3])).astype(np.float32), dtype=wp.vec2)
PARAMS0 = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
FD_EPS = 5e-3


def evaluate(p):
    p = np.asarray(p, np.float32)
    A = wp.array([wp.mat22(*p[:4])], dtype=wp.mat22, requires_grad=True)
    b = wp.array([wp.vec2(*p[4:])], dtype=wp.vec2, requires_grad=True)
    x = wp.zeros(N_GEN, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(generate, dim=N_GEN, inputs=[Z, A, b], outputs=[x])
        wp.launch(mmd_xx, dim=(N_GEN, N_GEN), inputs=[x], outputs=[loss])
        wp.launch(mmd_xy, dim=(N_GEN, N_TGT), inputs=[x, Y], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([A.grad.numpy().ravel(), b.grad.numpy().ravel()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        if not np.all(np.isfinite(g)):
            print(f"iter {it}: non-finite gradient, stopping")
            break
        p -= 0.5 * g
        if it % 25 == 0:
            print(f"iter {it:3d} mmd {loss:.5f}")
    print("A, b =", np.round(p, 3))
