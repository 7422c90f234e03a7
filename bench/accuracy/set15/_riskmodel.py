"""Factor-model covariance of 12 asset classes (annualised) and Warp helpers for portfolio risk."""
import numpy as np
import warp as wp

N_ASSET = 12


def covariance(seed=31):
    rng = np.random.default_rng(seed)
    vol = np.array([0.16, 0.18, 0.22, 0.25, 0.05, 0.07, 0.09, 0.30, 0.14, 0.20, 0.11, 0.03])
    f = rng.standard_normal((N_ASSET, 3)) * 0.5
    corr = f @ f.T + np.eye(N_ASSET)
    d = np.sqrt(np.diag(corr))
    corr = corr / np.outer(d, d)
    return (corr * np.outer(vol, vol)).astype(np.float32)


NA = wp.constant(N_ASSET)


@wp.kernel
def exp_logits(theta: wp.array(dtype=float), e: wp.array(dtype=float), s: wp.array(dtype=float)):
    i = wp.tid()
    e[i] = wp.exp(theta[i])
    wp.atomic_add(s, 0, e[i])


@wp.kernel
def weights_and_marginal(cov: wp.array2d(dtype=float), e: wp.array(dtype=float), s: wp.array(dtype=float),
                         w: wp.array(dtype=float), cw: wp.array(dtype=float), var: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(NA):
        acc += cov[i, j] * e[j] / s[0]
    w[i] = e[i] / s[0]
    cw[i] = acc
    wp.atomic_add(var, 0, w[i] * acc)


@wp.kernel
def rc_deviation(w: wp.array(dtype=float), cw: wp.array(dtype=float), var: wp.array(dtype=float),
                 dev: wp.array(dtype=float)):
    i = wp.tid()
    d = (w[i] * cw[i] / var[0] - 1.0 / float(NA)) * 100.0
    dev[i] = d * d


def risk_parity_deviation(cov, theta, dev):
    """Launch the three risk kernels (taped if a tape is active); dev receives (100 (RC_i - 1/N))^2."""
    e = wp.zeros(N_ASSET, dtype=float, requires_grad=True)
    s = wp.zeros(1, dtype=float, requires_grad=True)
    w = wp.zeros(N_ASSET, dtype=float, requires_grad=True)
    cw = wp.zeros(N_ASSET, dtype=float, requires_grad=True)
    var = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(exp_logits, dim=N_ASSET, inputs=[theta], outputs=[e, s])
    wp.launch(weights_and_marginal, dim=N_ASSET, inputs=[cov, e, s], outputs=[w, cw, var])
    wp.launch(rc_deviation, dim=N_ASSET, inputs=[w, cw, var], outputs=[dev])
