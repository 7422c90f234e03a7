# correct: the y log(mu) term is evaluated only inside an if branch for days with reported cases, where mu > 0, so log is never differentiated at zero.
"""Renewal-equation outbreak model with a reporting delay.

Infections I_t = R0 * sum_s w_s I_{t-s} grow from ten imported cases;
reported cases on day t are Poisson with mean rho * I_{t-DELAY}. R0 and the
reporting fraction rho are fitted by Poisson maximum likelihood.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_DAYS = 40
DELAY = 5
GEN = np.array([0.05, 0.2, 0.3, 0.25, 0.12, 0.08], dtype=np.float32)
REPORTED = np.array([0, 0, 0, 0, 0, 2, 3, 4, 2, 4, 5, 4, 6, 7, 5, 7, 9, 8, 10, 10, 12, 14, 15, 13, 18,
                     20, 19, 24, 26, 27, 30, 35, 33, 40, 44, 46, 52, 55, 61, 66], dtype=np.float32)


@wp.kernel
def renewal_day(inf: wp.array(dtype=float), gen: wp.array(dtype=float), prm: wp.array(dtype=float), k: int):
    acc = float(0.0)
    for s in range(6):
        acc += gen[s] * inf[k - 1 - s]
    inf[k] = prm[0] * acc


@wp.kernel
def poisson_nll(inf: wp.array(dtype=float), obs: wp.array(dtype=float), prm: wp.array(dtype=float),
                nll: wp.array(dtype=float)):
    t = wp.tid()
    mu = prm[1] * inf[t]  # infections DELAY days before day t (the padded series starts DELAY days early)
    y = obs[t]
    ll = mu
    if y > 0.0:
        ll = mu - y * wp.log(mu)
    wp.atomic_add(nll, 0, ll)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    seed = np.zeros(N_DAYS + DELAY, dtype=np.float32)
    seed[DELAY] = 10.0
    inf = wp.array(seed, dtype=float, requires_grad=True)
    nll = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(DELAY + 1, N_DAYS):
            wp.launch(renewal_day, dim=1, inputs=[inf, wp.array(GEN, dtype=float), prm, k])
        wp.launch(poisson_nll, dim=N_DAYS, inputs=[inf, wp.array(REPORTED, dtype=float), prm], outputs=[nll])
    tape.backward(nll)
    return float(nll.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([1.15, 0.5])

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"Poisson NLL {l:.4f}; d/d(R0, rho) = {g}")
