"""European put by an explicit finite-difference Black-Scholes PDE solver.

Vega and rho come from differentiating the solver: the per-node stencil
coefficients are rebuilt from (sigma, r) each time the grid is priced.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 81
S_MAX = 200.0
DS = S_MAX / (M - 1)
T = 0.5
N_T = 200
DT = T / N_T
STRIKE = 100.0


@wp.kernel
def stencil(s: wp.array(dtype=float), prm: wp.array(dtype=float), coef: wp.array(dtype=wp.vec3)):
    j = wp.tid()
    sig2 = prm[0] * prm[0]
    x = s[j] / DS
    a = 0.5 * DT * (sig2 * x * x - prm[1] * x)
    c = 0.5 * DT * (sig2 * x * x + prm[1] * x)
    b = 1.0 - DT * (sig2 * x * x + prm[1])
    coef[j] = wp.vec3(a, b, c)


@wp.kernel
def march(v: wp.array(dtype=float), coef: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), tau: float,
          v_out: wp.array(dtype=float)):
    j = wp.tid()
    if j == 0:
        v_out[j] = STRIKE * wp.exp(-prm[1] * tau)
    elif j == M - 1:
        v_out[j] = 0.0
    else:
        c = coef[j]
        v_out[j] = c[0] * v[j - 1] + c[1] * v[j] + c[2] * v[j + 1]


class PutGrid:
    def __init__(self):
        self.s = wp.array(np.linspace(0.0, S_MAX, M).astype(np.float32), dtype=float)
        self.payoff = np.maximum(STRIKE - np.linspace(0.0, S_MAX, M), 0.0).astype(np.float32)

    def price(self, prm):
        coef = wp.zeros(M, dtype=wp.vec3)  # expect: requires_grad
        wp.launch(stencil, dim=M, inputs=[self.s, prm], outputs=[coef])
        v = wp.array(self.payoff, dtype=float, requires_grad=True)
        for n in range(N_T):
            v_new = wp.empty_like(v)
            wp.launch(march, dim=M, inputs=[v, coef, prm, (n + 1) * DT], outputs=[v_new])
            v = v_new
        return v


GRID = PutGrid()
PARAMS0 = np.array([0.25, 0.03])


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        v = GRID.price(prm)
    at_money = int(round(100.0 / DS))
    seed = np.zeros(M, dtype=np.float32)
    seed[at_money] = 1.0
    tape.backward(grads={v: wp.array(seed, dtype=float)})
    return float(v.numpy()[at_money]), prm.grad.numpy().copy()


if __name__ == "__main__":
    price, g = evaluate(PARAMS0)
    print(f"put(S=100) {price:.4f}; vega {g[0]:.4f}, rho {g[1]:.4f}")
