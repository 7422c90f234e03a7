# correct: equilibration and production are recorded on separate tapes, but the production backward's adjoint of the hand-over state is passed on as the seed of the equilibration tape's backward.
"""Kremer-Grest chain (16 beads), overdamped Brownian dynamics: 20 equilibration steps
followed by 20 production steps over which the mean Rg^2 is measured. Gradient of
the production average with respect to the FENE parameters (k, R0). Equilibration
and production are recorded on their own tapes; the production adjoint of the
hand-over state seeds the equilibration tape's backward.
"""
import numpy as np
import warp as wp

from _polymer import brownian_step, chain_forces, gyration, random_walk_chain

N_BEADS = 16
N_EQ = 20
N_PROD = 20
MU_DT = 4e-4
KT = 1.0


class BrownianChain:
    def __init__(self, fene, noise):
        self.fene = fene
        self.noise = noise
        self.amp = float(np.sqrt(2.0 * KT * MU_DT))
        self.t = 0

    def run(self, x, n_steps, rg2=None):
        for _ in range(n_steps):
            f = wp.zeros(N_BEADS, dtype=wp.vec3, requires_grad=True)
            wp.launch(chain_forces, dim=N_BEADS, inputs=[x, self.fene], outputs=[f])
            x_new = wp.empty_like(x)
            wp.launch(brownian_step, dim=N_BEADS, inputs=[x, f, self.noise[self.t], MU_DT, self.amp], outputs=[x_new])
            x = x_new
            self.t += 1
            if rg2 is not None:
                wp.launch(gyration, dim=(N_BEADS, N_BEADS), inputs=[x], outputs=[rg2])
        return x


X0 = random_walk_chain(N_BEADS, 0.97, seed=41)
XI = np.random.default_rng(42).standard_normal((N_EQ + N_PROD, N_BEADS, 3)).astype(np.float32)
PARAMS0 = np.array([30.0, 1.5])
FD_EPS = [0.2, 4e-3]


def evaluate(p):
    fene = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    md = BrownianChain(fene, wp.array(XI, dtype=wp.vec3))
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    rg2_sum = wp.zeros(1, dtype=float, requires_grad=True)
    tape_eq = wp.Tape()
    with tape_eq:
        x_eq = md.run(x, N_EQ)
    tape_prod = wp.Tape()
    with tape_prod:
        x = md.run(x_eq, N_PROD, rg2=rg2_sum)
    tape_prod.backward(grads={rg2_sum: wp.full(1, 1.0 / N_PROD, dtype=float)})
    # continue the adjoint into the equilibration segment from the hand-over state
    tape_eq.backward(grads={x_eq: x_eq.grad})
    return float(rg2_sum.numpy()[0]) / N_PROD, fene.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    rg2, g = evaluate(PARAMS0)
    print(f"<Rg^2>_prod = {rg2:.4f}; d<Rg^2>/d(k, R0) = {g}")
