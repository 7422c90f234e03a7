"""Kremer-Grest bead-spring chain (16 beads) under overdamped Brownian dynamics:
gradient of the chain's radius of gyration after 30 steps with respect to the FENE
spring constant k and maximum extension R0 (pre-drawn noise, reproducible).
"""
import numpy as np
import warp as wp

from _polymer import brownian_step, chain_forces, gyration, random_walk_chain

N_BEADS = 16
N_STEPS = 30
MU_DT = 4e-4
KT = 1.0


class BeadSpringChain:
    def __init__(self, x0, fene):
        self.n = x0.shape[0]
        self.fene = fene
        self.x = wp.array(x0, dtype=wp.vec3, requires_grad=True)
        self.noise_amp = float(np.sqrt(2.0 * KT * MU_DT))

    def step(self, xi):
        f = wp.zeros(self.n, dtype=wp.vec3)  # expect: requires_grad
        wp.launch(chain_forces, dim=self.n, inputs=[self.x, self.fene], outputs=[f])
        x_new = wp.empty_like(self.x)
        wp.launch(brownian_step, dim=self.n, inputs=[self.x, f, xi, MU_DT, self.noise_amp], outputs=[x_new])
        self.x = x_new


X0 = random_walk_chain(N_BEADS, 0.97, seed=1)
XI = np.random.default_rng(2).standard_normal((N_STEPS, N_BEADS, 3)).astype(np.float32)
PARAMS0 = np.array([30.0, 1.5])  # FENE k, R0
FD_EPS = [0.05, 1e-3]


def evaluate(p):
    fene = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    chain = BeadSpringChain(X0, fene)
    noise = wp.array(XI, dtype=wp.vec3)
    rg2 = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(N_STEPS):
            chain.step(noise[s])
        wp.launch(gyration, dim=(N_BEADS, N_BEADS), inputs=[chain.x], outputs=[rg2])
    tape.backward(rg2)
    return float(rg2.numpy()[0]), fene.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    rg2, g = evaluate(PARAMS0)
    print(f"Rg^2 = {rg2:.4f}; dRg^2/d(k, R0) = {g}")
