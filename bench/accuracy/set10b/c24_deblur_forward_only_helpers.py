# correct: kernels built with enable_backward=False appear in a differentiated program, but they only synthesise the observation and compute metrics, never on the tape
"""Non-blind deconvolution: recover a sharp 1-D signal from its blurred,
noisy observation by gradient descent on the pixels with a smoothness prior.
The blur used to synthesise the observation and the PSNR metric are
forward-only kernels; the differentiable model uses its own blur kernel.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

L = 48
KW = 7
PRIOR = 0.05


@wp.kernel(enable_backward=False)
def synthesize(x: wp.array(dtype=float), psf: wp.array(dtype=float), noise: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(KW):
        j = wp.clamp(i + k - KW // 2, 0, L - 1)
        acc += psf[k] * x[j]
    y[i] = acc + noise[i]


@wp.kernel(enable_backward=False)
def squared_error(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, (a[i] - b[i]) * (a[i] - b[i]))


@wp.kernel
def blur(x: wp.array(dtype=float), psf: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(KW):
        j = wp.clamp(i + k - KW // 2, 0, L - 1)
        acc += psf[k] * x[j]
    y[i] = acc


@wp.kernel
def data_and_prior(y_model: wp.array(dtype=float), y_obs: wp.array(dtype=float), x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = y_model[i] - y_obs[i]
    e = r * r
    if i + 1 < L:
        d = x[i + 1] - x[i]
        e += PRIOR * wp.log(1.0 + d * d / 0.01)
    wp.atomic_add(loss, 0, e)


PSF = wp.array((np.exp(-0.5 * (np.arange(KW) - KW // 2) ** 2 / 1.5 ** 2) / np.exp(-0.5 * (np.arange(KW) - KW // 2) ** 2 / 1.5 ** 2).sum()).astype(np.float32), dtype=float)
X_TRUE_NP = np.where((np.arange(L) % 16) < 8, 1.0, 0.2).astype(np.float32)
X_TRUE = wp.array(X_TRUE_NP, dtype=float)
Y_OBS = wp.zeros(L, dtype=float)
wp.launch(synthesize, dim=L, inputs=[X_TRUE, PSF, wp.array(np.random.default_rng(0).normal(0, 0.02, L).astype(np.float32), dtype=float)],
          outputs=[Y_OBS])
PARAMS0 = Y_OBS.numpy().astype(np.float64)


def psnr(x):
    se = wp.zeros(1, dtype=float)
    wp.launch(squared_error, dim=L, inputs=[x, X_TRUE], outputs=[se])
    return 10 * np.log10(1.0 / (se.numpy()[0] / L))


def evaluate(p):
    x = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    y = wp.zeros(L, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(blur, dim=L, inputs=[x, PSF], outputs=[y])
        wp.launch(data_and_prior, dim=L, inputs=[y, Y_OBS, x], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), x.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(300):
        loss, g = evaluate(p)
        p -= 0.05 * g
        if it % 100 == 0:
            print(f"iter {it:3d} loss {loss:.5f} psnr {psnr(wp.array(p.astype(np.float32), dtype=float)):.2f} dB")
