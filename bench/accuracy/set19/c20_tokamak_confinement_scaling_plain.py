# correct: look-alike of b20 (confinement-time array rewritten for L-mode shots), with tau a plain requires_grad array whose rewrite consumes the gradient.
"""Energy-confinement-time scaling fitted to a small tokamak shot database.

tau_E = C I^a B^0.15 P^c for H-mode shots; L-mode shots are rewritten by a
second kernel with the same power law times the L-to-H confinement factor
h_L. Shot features (plasma current MA, toroidal field T, heating power MW)
are stored as wp.vec3. Parameters: ln C, a, c, h_L; fitted in log space.
"""
import numpy as np
import warp as wp

wp.config.quiet = True


@wp.func
def power_law(par: wp.array(dtype=float), x: wp.vec3):
    return wp.exp(par[0]) * wp.pow(x[0], par[1]) * wp.pow(x[1], 0.15) * wp.pow(x[2], par[2])


@wp.kernel
def h_mode_tau(par: wp.array(dtype=float), shots: wp.array(dtype=wp.vec3), tau: wp.array(dtype=float)):
    i = wp.tid()
    tau[i] = power_law(par, shots[i])


@wp.kernel
def l_mode_tau(par: wp.array(dtype=float), shots: wp.array(dtype=wp.vec3), lmode: wp.array(dtype=int),
               tau: wp.array(dtype=float)):
    i = wp.tid()
    if lmode[i] == 1:
        tau[i] = par[3] * power_law(par, shots[i])


@wp.kernel
def log_tau_misfit(tau: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.log(tau[i] / obs[i])
    wp.atomic_add(loss, 0, d * d)


class ConfinementDatabase:
    def __init__(self, shots, lmode, tau_obs):
        self.n = len(tau_obs)
        self.shots = wp.array(shots, dtype=wp.vec3)
        self.lmode = wp.array(lmode, dtype=int)
        self.tau_obs = wp.array(tau_obs, dtype=float)

    def misfit(self, p):
        par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.tau = wp.zeros(self.n, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(h_mode_tau, dim=self.n, inputs=[par, self.shots], outputs=[self.tau])
            wp.launch(l_mode_tau, dim=self.n, inputs=[par, self.shots, self.lmode], outputs=[self.tau])
            wp.launch(log_tau_misfit, dim=self.n, inputs=[self.tau, self.tau_obs], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), par.grad.numpy().copy()


rng = np.random.default_rng(21)
SHOTS = np.stack([rng.uniform(0.5, 2.0, 20), rng.uniform(1.5, 5.0, 20), rng.uniform(1.0, 20.0, 20)], 1)
LMODE = (np.arange(20) % 3 == 0).astype(np.int32)
TAU_OBS = 0.05 * SHOTS[:, 0] ** 0.95 * SHOTS[:, 1] ** 0.15 * SHOTS[:, 2] ** -0.65 * np.where(LMODE, 0.5, 1.0)
TAU_OBS *= np.exp(rng.normal(0, 0.05, 20))

DB = ConfinementDatabase(SHOTS, LMODE, TAU_OBS)
PARAMS0 = [np.log(0.06), 0.8, -0.55, 0.6]
FD_EPS = 1e-3


def evaluate(p):
    return DB.misfit(p)


if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"log-tau misfit {l:.4f}  gradient (ln C, a_I, a_P, h_L) = {g}")
