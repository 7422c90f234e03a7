"""Fit a two-exponential decay model to noisy fluorescence measurements with clipped gradient descent."""

import numpy as np
import warp as wp


@wp.kernel
def decay_residuals(
    params: wp.array(dtype=float),
    times: wp.array(dtype=float),
    measured: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    t = times[i]
    model = params[0] * wp.exp(-params[1] * t) + params[2] * wp.exp(-params[3] * t)
    r = model - measured[i]
    wp.atomic_add(loss, 0, r * r)


def measurements(n=80, seed=5):
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 6.0, n).astype(np.float32)
    y = 2.0 * np.exp(-1.7 * t) + 0.6 * np.exp(-0.25 * t)
    return t, (y + rng.normal(0.0, 0.01, n)).astype(np.float32)


def main():
    t_np, y_np = measurements()
    times = wp.array(t_np, dtype=float)
    measured = wp.array(y_np, dtype=float)
    params = wp.array([1.0, 1.0, 1.0, 0.1], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 0.01
    max_norm = 5.0
    tape = wp.Tape()
    for it in range(200):
        loss.zero_()
        with tape:
            wp.launch(decay_residuals, dim=len(t_np), inputs=[params, times, measured], outputs=[loss])

        grad_norm = float(np.linalg.norm(params.grad.numpy()))  # expect: TW205
        clip = min(1.0, max_norm / (grad_norm + 1e-6))

        tape.backward(loss)
        step = lr * clip * params.grad.numpy()
        params.assign(params.numpy() - step)
        if it % 40 == 0:
            print(f"iter {it:3d} loss {loss.numpy()[0]:.5f} |g| {grad_norm:.4f} clip {clip:.3f}")
        tape.zero()
        tape.reset()

    print("A1, k1, A2, k2 =", np.round(params.numpy(), 4))


if __name__ == "__main__":
    main()
