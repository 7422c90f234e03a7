"""Fit the weights of a 32-center Gaussian RBF surface to surveyed elevation points."""

import numpy as np
import warp as wp

CENTERS = 32


@wp.kernel
def evaluate_rbf(
    query: wp.array(dtype=wp.vec2),
    centers: wp.array(dtype=wp.vec2),
    weights: wp.array(dtype=float),
    log_width: wp.array(dtype=float),
    height: wp.array(dtype=float),
):
    i = wp.tid()
    p = query[i]
    inv_w2 = wp.exp(-2.0 * log_width[0])
    acc = float(0.0)
    for c in range(CENTERS):
        d = p - centers[c]
        acc += weights[c] * wp.exp(-wp.dot(d, d) * inv_w2)
    height[i] = acc


@wp.kernel
def survey_misfit(height: wp.array(dtype=float), surveyed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = height[i] - surveyed[i]
    wp.atomic_add(loss, 0, r * r)


def survey(n=150, seed=17):
    rng = np.random.default_rng(seed)
    pts = rng.uniform(0.0, 4.0, (n, 2)).astype(np.float32)
    z = (np.sin(pts[:, 0]) * np.cos(0.7 * pts[:, 1]) + 0.1 * pts[:, 0]).astype(np.float32)
    g = np.linspace(0.25, 3.75, 6)
    centers = np.array([[a, b] for a in g for b in g][:CENTERS], dtype=np.float32)
    return pts, z, centers


def main():
    pts, z, centers_np = survey()
    query = wp.array(pts, dtype=wp.vec2)
    surveyed = wp.array(z, dtype=float)
    centers = wp.array(centers_np, dtype=wp.vec2)
    weights = wp.zeros(CENTERS, dtype=float, requires_grad=True)
    log_width = wp.array([np.log(0.8)], dtype=float, requires_grad=True)
    height = wp.zeros(len(z), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 0.02
    for it in range(200):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(evaluate_rbf, dim=len(z), inputs=[query, centers, weights, log_width], outputs=[height])
            wp.launch(survey_misfit, dim=len(z), inputs=[height, surveyed], outputs=[loss])
        tape.backward(loss)
        weights.assign(weights.numpy() - lr * weights.grad.numpy())
        log_width.assign(log_width.numpy() - 0.02 * lr * log_width.grad.numpy())
        if it % 40 == 0:
            print(f"iter {it:3d} loss {loss.numpy()[0]:.5f} width {np.exp(log_width.numpy()[0]):.4f}")
        tape.zero()

    print("rms error", np.sqrt(loss.numpy()[0] / len(z)))


if __name__ == "__main__":
    main()
