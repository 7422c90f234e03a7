# correct: fermenter fit whose per-step growth-rate arrays come from wp.zeros_like of the biomass states and so inherit requires_grad.
"""Batch ale fermentation in four tanks with Monod yeast growth.

Each step first evaluates the specific growth rate mu = mu_max S / (Ks + S)
per tank, then advances biomass X and sugar S (yield Y). The Fermenter
class stores the per-step growth rates for the brewer's log and fits
mu_max, Ks and Y to the final gravity readings.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_TANK = 4
N_STEPS = 16
DT = 3.0  # h
X0 = np.array([0.8, 1.0, 0.6, 1.2], dtype=np.float32)  # g/L yeast
S0 = np.array([110.0, 125.0, 95.0, 140.0], dtype=np.float32)  # g/L sugar
S_END_OBS = np.array([38.0, 30.0, 47.0, 22.0], dtype=np.float32)


@wp.kernel
def growth_rate(s: wp.array(dtype=float), p: wp.array(dtype=float), mu: wp.array(dtype=float)):
    i = wp.tid()
    mu[i] = p[0] * s[i] / (p[1] + s[i])


@wp.kernel
def advance(x: wp.array(dtype=float), s: wp.array(dtype=float), mu: wp.array(dtype=float), p: wp.array(dtype=float),
            x_out: wp.array(dtype=float), s_out: wp.array(dtype=float)):
    i = wp.tid()
    growth = mu[i] * x[i] * DT
    x_out[i] = x[i] + growth
    s_out[i] = wp.max(s[i] - growth / p[2], 0.0)


@wp.kernel
def gravity_misfit(s: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (s[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, r * r)


class Fermenter:
    def __init__(self):
        self.x = [wp.zeros(N_TANK, dtype=float, requires_grad=True) for _ in range(N_STEPS + 1)]
        self.s = [wp.zeros(N_TANK, dtype=float, requires_grad=True) for _ in range(N_STEPS + 1)]
        self.mu = [wp.zeros_like(xk) for xk in self.x[1:]]
        self.obs = wp.array(S_END_OBS, dtype=float)

    def run(self, p):
        params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.x[0].assign(X0)
        self.s[0].assign(S0)
        tape = wp.Tape()
        with tape:
            for k in range(N_STEPS):
                wp.launch(growth_rate, dim=N_TANK, inputs=[self.s[k], params], outputs=[self.mu[k]])
                wp.launch(advance, dim=N_TANK, inputs=[self.x[k], self.s[k], self.mu[k], params],
                          outputs=[self.x[k + 1], self.s[k + 1]])
            wp.launch(gravity_misfit, dim=N_TANK, inputs=[self.s[N_STEPS], self.obs], outputs=[loss])
        tape.backward(loss)
        g = params.grad.numpy().astype(np.float64)
        tape.zero()
        return float(loss.numpy()[0]), g


PARAMS0 = [0.05, 20.0, 0.5]
FD_EPS = [1e-5, 1e-2, 1e-4]
_tank = Fermenter()


def evaluate(p):
    return _tank.run(p)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"gravity misfit {l:.4f}  grad mu_max/Ks/Y = {np.round(g, 4)}")
    print("growth rate log (1/h):", np.round(_tank.mu[-1].numpy(), 4))
