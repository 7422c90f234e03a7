# correct: the deviance term y log(y / mu) sits in a wp.where guard for zero counts, but the log's argument is clamped with wp.max first, so the rejected branch stays finite and its zero adjoint gives no NaN.
"""Fit the amplitudes of three emission lines to a photon-count spectrum with
many empty channels by minimising the Poisson deviance."""
import numpy as np
import warp as wp

wp.config.quiet = True

CH = 64
LINES = np.array([0.25, 0.5, 0.7], dtype=np.float32)
WIDTH = 0.03
rng = np.random.default_rng(47)
_x = (np.arange(CH) + 0.5) / CH
_mu = 0.05 + sum(a * np.exp(-0.5 * ((_x - c) / WIDTH) ** 2) for a, c in zip([6.0, 3.0, 9.0], LINES))
COUNTS = rng.poisson(_mu).astype(np.float32)
PARAMS0 = [4.0, 4.0, 4.0]


@wp.kernel
def model(amp: wp.array(dtype=float), lines: wp.array(dtype=float), mu: wp.array(dtype=float)):
    i = wp.tid()
    x = (float(i) + 0.5) / float(mu.shape[0])
    s = float(0.05)
    for k in range(3):
        d = (x - lines[k]) / WIDTH
        s += amp[k] * wp.exp(-0.5 * d * d)
    mu[i] = s


@wp.kernel
def deviance(mu: wp.array(dtype=float), y: wp.array(dtype=float), dev: wp.array(dtype=float)):
    i = wp.tid()
    yi = y[i]
    m = mu[i]
    t = wp.where(yi > 0.0, yi * wp.log(wp.max(yi, 1.0e-12) / m), 0.0)
    wp.atomic_add(dev, 0, 2.0 * (t - (yi - m)))


def evaluate(p):
    amp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    mu = wp.zeros(CH, dtype=float, requires_grad=True)
    dev = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(model, dim=CH, inputs=[amp, wp.array(LINES, dtype=float)], outputs=[mu])
        wp.launch(deviance, dim=CH, inputs=[mu, wp.array(COUNTS, dtype=float)], outputs=[dev])
    tape.backward(dev)
    return float(dev.numpy()[0]), amp.grad.numpy().copy()


if __name__ == "__main__":
    print(f"{int((COUNTS == 0).sum())} of {CH} channels are empty")
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.2 * g
        if it % 10 == 0:
            print(f"iter {it} deviance {l:.3f} amplitudes {np.round(p, 2)}")
