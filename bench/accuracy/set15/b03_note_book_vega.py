"""Vega and rho of a book of capped structured notes (Monte Carlo, smoothed payoff).

Terminal prices follow geometric Brownian motion on 8192 fixed scenarios; each
note pays notional * softcall(S_T - K) with a softplus-smoothed call, written with
one formula per side of the strike and a hand-written adjoint for both sides.
The launch accumulates the undiscounted payout of the whole book over all
scenarios (of order 1e10 in float32); its gradient with respect to (sigma, r)
is what the risk report prints.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SCEN = 8192
STRIKES = np.array([88.0, 96.0, 104.0, 112.0, 125.0], dtype=np.float32)
NOTIONAL = 2.5e4
S0 = 100.0
T_MAT = 1.5
SHARP = 0.8  # 1 / price-unit smoothing width of the payoff
PARAMS0 = np.array([0.24, 0.035])  # sigma, r
FD_EPS = np.array([1e-3, 1e-3])


@wp.func
def softcall(x: float, k: float):
    if x > 0.0:
        return x + wp.log(1.0 + wp.exp(-k * x)) / k
    else:
        return wp.log(1.0 + wp.exp(k * x)) / k


@wp.func_grad(softcall)
def adj_softcall(x: float, k: float, adj_ret: float):
    if x > 0.0:
        e = wp.exp(-k * x)
        wp.adjoint[x] += adj_ret / (1.0 + e)
    else:
        e = wp.exp(k * x)
        wp.adjoint[x] += adj_ret / (1.0 + e)  # expect: custom_adjoint


@wp.kernel
def book_payout(z: wp.array(dtype=float), strikes: wp.array(dtype=float), prm: wp.array(dtype=float),
                total: wp.array(dtype=float)):
    i, j = wp.tid()
    sig = prm[0]
    st = S0 * wp.exp((prm[1] - 0.5 * sig * sig) * T_MAT + sig * wp.sqrt(T_MAT) * z[i])
    wp.atomic_add(total, 0, NOTIONAL * softcall(st - strikes[j], SHARP))


Z = np.random.default_rng(2024).standard_normal(N_SCEN).astype(np.float32)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    total = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(book_payout, dim=(N_SCEN, len(STRIKES)),
                  inputs=[wp.array(Z, dtype=float), wp.array(STRIKES, dtype=float), prm], outputs=[total])
    tape.backward(total)
    return float(total.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    V, g = evaluate(PARAMS0)
    per = N_SCEN
    print(f"book value {V / per:,.0f} per scenario; vega {g[0] / per:,.0f}, rho {g[1] / per:,.0f}")
