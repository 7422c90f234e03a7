"""Fit a saturating crop-yield response to fertilizer by minimizing the mean squared error over plots."""
import numpy as np
import warp as wp

NPLOT = 8


@wp.kernel
def per_plot_error(fert: wp.array(dtype=wp.float32), rain: wp.array(dtype=wp.float32), obs: wp.array(dtype=wp.float32),
                   theta: wp.array(dtype=wp.float32), err: wp.array(dtype=wp.float32)):
    i = wp.tid()
    pred = theta[0] * (1.0 - wp.exp(-theta[1] * fert[i])) + theta[2] * rain[i]
    d = pred - obs[i]
    err[i] = d * d


def plots():
    rng = np.random.default_rng(7)
    fert = rng.uniform(0.0, 3.0, NPLOT).astype(np.float32)
    rain = rng.uniform(0.5, 1.5, NPLOT).astype(np.float32)
    obs = (5.0 * (1.0 - np.exp(-0.9 * fert)) + 1.2 * rain + rng.normal(0.0, 0.1, NPLOT)).astype(np.float32)
    return wp.array(fert, dtype=wp.float32), wp.array(rain, dtype=wp.float32), wp.array(obs, dtype=wp.float32)


def errors(theta, data):
    err = wp.zeros(NPLOT, dtype=wp.float32, requires_grad=True)
    wp.launch(per_plot_error, dim=NPLOT, inputs=[*data, theta], outputs=[err])
    return err


def fit(iters=60, lr=0.02):
    data = plots()
    theta = wp.array(np.array([3.0, 0.5, 1.0], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            err = errors(theta, data)
        tape.backward(grads={err: wp.ones(NPLOT, dtype=wp.float32)})  # expect: seeding
        g = theta.grad.numpy().copy()
        history.append((theta.numpy().copy(), g))
        theta.assign(theta.numpy() - lr * g)
        tape.zero()
        if it % 20 == 0:
            print(f"iter {it} mse {err.numpy().mean():.4f}")
    return history


if __name__ == "__main__":
    fit()
