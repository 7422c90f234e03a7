"""Emission-absorption volume rendering of a 2-D density field, fitted to
observed ray opacities (a tomography-style inverse problem).

density(p) = softplus(b + sum_j w_j exp(-|p - c_j|^2 / 2 s^2)); each ray's
optical depth is accumulated from its samples, opacity = 1 - exp(-tau).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_RAYS = 16
N_SAMPLES = 32
N_BLOBS = 4
STEP = 2.0 / N_SAMPLES
BLOB_SIGMA = 0.25


@wp.func
def softplus(z: float):
    return wp.where(z > 20.0, z, wp.log(1.0 + wp.exp(z)))  # expect: nonfinite


@wp.kernel
def march(centers: wp.array(dtype=wp.vec2), w: wp.array(dtype=float), bias: wp.array(dtype=float), tau: wp.array(dtype=float)):
    r, s = wp.tid()
    p = wp.vec2(-1.0 + (float(s) + 0.5) * STEP, -0.9 + 1.8 * float(r) / float(N_RAYS - 1))
    raw = bias[0]
    for j in range(N_BLOBS):
        d = p - centers[j]
        raw += w[j] * wp.exp(-wp.dot(d, d) / (2.0 * BLOB_SIGMA * BLOB_SIGMA))
    wp.atomic_add(tau, r, softplus(raw) * STEP)


@wp.kernel
def opacity_loss(tau: wp.array(dtype=float), observed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    r = wp.tid()
    alpha = 1.0 - wp.exp(-tau[r])
    d = alpha - observed[r]
    wp.atomic_add(loss, 0, d * d)


CENTERS = wp.array([[-0.4, 0.2], [0.3, -0.3], [0.1, 0.5], [0.5, 0.4]], dtype=wp.vec2)


def render(w, bias):
    tau = wp.zeros(N_RAYS, dtype=float, requires_grad=True)
    wp.launch(march, dim=(N_RAYS, N_SAMPLES), inputs=[CENTERS, w, bias], outputs=[tau])
    return tau


TRUE_W = np.array([110.0, -3.0, 4.0, 2.0])
TRUE_B = -2.5
OBSERVED = wp.array(1.0 - np.exp(-render(wp.array(TRUE_W.astype(np.float32), dtype=float),
                                         wp.array([TRUE_B], dtype=float)).numpy()), dtype=float)
PARAMS0 = np.array([100.0, -2.0, 3.0, 2.5, -2.0])
FD_EPS = 1e-2


def evaluate(p):
    p = np.asarray(p, np.float32)
    w = wp.array(p[:N_BLOBS], dtype=float, requires_grad=True)
    bias = wp.array(p[N_BLOBS:], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        tau = render(w, bias)
        wp.launch(opacity_loss, dim=N_RAYS, inputs=[tau, OBSERVED], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([w.grad.numpy(), bias.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        loss, g = evaluate(p)
        print_it = it % 20 == 0
        if print_it:
            print(f"iter {it:2d} loss {loss:.6f} grad finite: {np.all(np.isfinite(g))}")
        p -= 1.0 * np.nan_to_num(g)
