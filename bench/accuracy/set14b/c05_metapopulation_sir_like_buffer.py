# correct: the force-of-infection buffer is made with wp.zeros_like of the prevalence array, which has requires_grad, so it inherits the flag.
"""Metapopulation SIR over five towns linked by commuting.

Force of infection in town i: lambda_i = beta * sum_j M_ij I_j. The fit
recovers (beta, gamma) from weekly prevalence surveys in every town.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_TOWN = 5
N_STEPS = 70
DT = 0.5
_m = np.full((N_TOWN, N_TOWN), 0.04) + np.diag(np.full(N_TOWN, 0.8))
MOBILITY = (_m / _m.sum(axis=1, keepdims=True)).astype(np.float32)


@wp.kernel
def infection_force(m: wp.array2d(dtype=float), inf: wp.array(dtype=float), prm: wp.array(dtype=float),
                    lam: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(N_TOWN):
        acc += m[i, j] * inf[j]
    lam[i] = prm[0] * acc


@wp.kernel
def sir_update(s: wp.array(dtype=float), inf: wp.array(dtype=float), lam: wp.array(dtype=float),
               prm: wp.array(dtype=float), s_out: wp.array(dtype=float), i_out: wp.array(dtype=float)):
    i = wp.tid()
    new = DT * lam[i] * s[i]
    s_out[i] = s[i] - new
    i_out[i] = inf[i] + new - DT * prm[1] * inf[i]


@wp.kernel
def survey_misfit(inf: wp.array(dtype=float), obs: wp.array2d(dtype=float), w: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = 100.0 * (inf[i] - obs[w, i])
    wp.atomic_add(loss, 0, d * d)


class Towns:
    def __init__(self, prm):
        self.prm = prm
        self.m = wp.array(MOBILITY, dtype=float)
        i0 = np.array([0.01, 0.0, 0.0, 0.002, 0.0], dtype=np.float32)
        self.s = wp.array(1.0 - i0, dtype=float, requires_grad=True)
        self.i = wp.array(i0, dtype=float, requires_grad=True)

    def step(self):
        lam = wp.zeros_like(self.i)
        s_new = wp.empty_like(self.s)
        i_new = wp.empty_like(self.i)
        wp.launch(infection_force, dim=N_TOWN, inputs=[self.m, self.i, self.prm], outputs=[lam])
        wp.launch(sir_update, dim=N_TOWN, inputs=[self.s, self.i, lam, self.prm], outputs=[s_new, i_new])
        self.s, self.i = s_new, i_new


def run(p, obs=None):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    towns = Towns(prm)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    rows = []
    tape = wp.Tape()
    with tape:
        for n in range(N_STEPS):
            towns.step()
            if (n + 1) % 14 == 0:
                if obs is None:
                    rows.append(towns.i.numpy().copy())
                else:
                    wp.launch(survey_misfit, dim=N_TOWN, inputs=[towns.i, obs, (n + 1) // 14 - 1], outputs=[loss])
    return tape, prm, loss, rows


OBS = wp.array(np.array(run([0.6, 0.25])[3]), dtype=float)
PARAMS0 = np.array([0.5, 0.22])


def evaluate(p):
    tape, prm, loss, _ = run(p, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"survey misfit {l:.4f}; d/d(beta, gamma) = {g}")
