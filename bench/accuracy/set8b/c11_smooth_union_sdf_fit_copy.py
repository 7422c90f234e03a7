# correct: the host copy of the gradient is taken before tape.zero() clears the device buffer
"""Recover a 2D shape made of two circles blended with a polynomial smooth-min.

The distances of the shape are observed at scattered sample points; the
parameters (c1, c2, r1, r2) are updated on the host.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_SAMPLES = 40
K_BLEND = 0.25


@wp.func
def smin(a: float, b: float, k: float):
    h = wp.clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return b * (1.0 - h) + a * h - k * h * (1.0 - h)


@wp.kernel
def shape_residual(pts: wp.array(dtype=wp.vec2), obs: wp.array(dtype=float), shape: wp.array(dtype=float),
                   inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    p = pts[i]
    d1 = wp.length(p - wp.vec2(shape[0], shape[1])) - shape[4]
    d2 = wp.length(p - wp.vec2(shape[2], shape[3])) - shape[5]
    r = smin(d1, d2, K_BLEND) - obs[i]
    wp.atomic_add(loss, 0, r * r * inv_n)


TRUE_SHAPE = np.array([-0.3, 0.0, 0.35, 0.1, 0.4, 0.3], dtype=np.float32)
PARAMS0 = np.array([-0.2, 0.1, 0.3, 0.0, 0.3, 0.35])


def observations():
    rng = np.random.default_rng(2)
    pts = rng.uniform(-1.0, 1.0, (N_SAMPLES, 2)).astype(np.float32)
    p = wp.array(pts, dtype=wp.vec2)
    c1, c2 = TRUE_SHAPE[:2], TRUE_SHAPE[2:4]
    d1 = np.linalg.norm(pts - c1, axis=1) - TRUE_SHAPE[4]
    d2 = np.linalg.norm(pts - c2, axis=1) - TRUE_SHAPE[5]
    h = np.clip(0.5 + 0.5 * (d2 - d1) / K_BLEND, 0, 1)
    obs = d2 * (1 - h) + d1 * h - K_BLEND * h * (1 - h)
    return p, wp.array(obs.astype(np.float32), dtype=float)


def fit(p0, iters, lr=0.4, log=False):
    pts, obs = observations()
    shape = wp.array(np.asarray(p0, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    history = []
    for it in range(iters):
        tape.reset()
        loss.zero_()
        with tape:
            wp.launch(shape_residual, dim=N_SAMPLES, inputs=[pts, obs, shape, 1.0 / N_SAMPLES], outputs=[loss])
        tape.backward(loss)
        g = shape.grad.numpy().copy()
        tape.zero()
        before = shape.numpy().astype(np.float64)
        shape.assign(before - lr * g)
        history.append((before, (before - shape.numpy().astype(np.float64)) / lr))
        if log and it % 10 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.6f}")
    return shape, history


def objective(p):
    pts, obs = observations()
    shape = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(shape_residual, dim=N_SAMPLES, inputs=[pts, obs, shape, 1.0 / N_SAMPLES], outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    _, hist = fit(PARAMS0, 2)
    p, g_used = hist[1]
    fd = np.array([(objective(p + e) - objective(p - e)) / 2e-3 for e in np.eye(p.size) * 1e-3])
    return g_used, fd


if __name__ == "__main__":
    shape, _ = fit(PARAMS0, 40, log=True)
    print("shape", np.round(shape.numpy(), 3), "true", TRUE_SHAPE)
