# correct: the seed of the log-cosh loss is tanh(r), its exact derivative.
"""Fishery stock assessment: fit a Schaefer surplus-production model to catch-per-unit-effort with a log-cosh robust loss."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_YEAR = 14
CATCH = (np.linspace(0.10, 0.30, N_YEAR) + 0.03 * np.sin(np.arange(N_YEAR))).astype(np.float32)


@wp.kernel
def schaefer_year(p: wp.array(dtype=float), b: wp.array(dtype=float), landings: wp.array(dtype=float), t: int,
                  b_next: wp.array(dtype=float), cpue: wp.array(dtype=float)):
    r = p[0]
    q = p[1]
    bt = b[0]
    b_next[0] = wp.max(bt + r * bt * (1.0 - bt) - landings[t], 0.01)
    cpue[t] = q * bt


def _truth(r=0.6, q=2.0):
    b, out = 0.9, []
    for t in range(N_YEAR):
        out.append(q * b)
        b = max(b + r * b * (1 - b) - CATCH[t], 0.01)
    rng = np.random.default_rng(2)
    return np.array(out) * np.exp(rng.normal(0, 0.5, N_YEAR))


OBS = _truth()


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    landings = wp.array(CATCH, dtype=float)
    cpue = wp.zeros(N_YEAR, dtype=float, requires_grad=True)
    biomass = [wp.array([0.9], dtype=float, requires_grad=True)]
    tape = wp.Tape()
    with tape:
        for t in range(N_YEAR):
            biomass.append(wp.zeros(1, dtype=float, requires_grad=True))
            wp.launch(schaefer_year, dim=1, inputs=[params, biomass[t], landings, t], outputs=[biomass[-1], cpue])
    r = cpue.numpy().astype(np.float64) - OBS
    loss = float(np.sum(np.log(np.cosh(r))))  # robust to outlier surveys
    dl_dr = np.tanh(r)  # d log(cosh r) / dr
    tape.backward(grads={cpue: wp.array(dl_dr.astype(np.float32), dtype=float)})
    return loss, params.grad.numpy().astype(np.float64)


PARAMS0 = [0.5, 1.7]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.02 * g
    print("stock assessment log-cosh loss %.4f params %s" % (l, p))
