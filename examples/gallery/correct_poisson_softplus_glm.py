"""Poisson regression of hourly request counts with a softplus link, fitted by gradient descent."""

import numpy as np
import warp as wp

FEATURES = 5


@wp.func
def softplus(z: float):
    return wp.where(z > 20.0, z, wp.log(1.0 + wp.exp(wp.min(z, 20.0))))


@wp.kernel
def poisson_nll(
    features: wp.array2d(dtype=float),
    counts: wp.array(dtype=float),
    weights: wp.array(dtype=float),
    bias: wp.array(dtype=float),
    nll: wp.array(dtype=float),
):
    n = wp.tid()
    z = bias[0]
    for k in range(FEATURES):
        z += weights[k] * features[n, k]
    rate = softplus(z) + 1e-6
    wp.atomic_add(nll, 0, rate - counts[n] * wp.log(rate))


def traffic_log(n=400, seed=13):
    rng = np.random.default_rng(seed)
    X = rng.normal(0.0, 1.0, (n, FEATURES)).astype(np.float32)
    # promotional hours: the campaign flag column spikes
    X[::25, 3] = 200.0
    w = np.array([0.6, -0.4, 0.2, 0.5, 0.0])
    z = X @ w + 1.0
    rate = np.where(z > 20, z, np.log1p(np.exp(np.minimum(z, 20))))
    y = rng.poisson(rate).astype(np.float32)
    return X, y


def main():
    X, y = traffic_log()
    features = wp.array(X, dtype=float)
    counts = wp.array(y, dtype=float)
    weights = wp.array(np.full(FEATURES, 0.5, dtype=np.float32), dtype=float, requires_grad=True)
    bias = wp.zeros(1, dtype=float, requires_grad=True)
    nll = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 1e-4
    for it in range(200):
        nll.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(poisson_nll, dim=len(y), inputs=[features, counts, weights, bias], outputs=[nll])
        tape.backward(nll)
        weights.assign(weights.numpy() - lr * weights.grad.numpy())
        bias.assign(bias.numpy() - lr * bias.grad.numpy())
        if it % 40 == 0:
            print(f"iter {it:3d} nll {nll.numpy()[0]:.3f} weights {np.round(weights.numpy(), 3)}")
        tape.zero()

    print("weights", np.round(weights.numpy(), 3), "bias", np.round(bias.numpy(), 3))


if __name__ == "__main__":
    main()
