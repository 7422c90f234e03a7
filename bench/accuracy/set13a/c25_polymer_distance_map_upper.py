# correct: pair distances are taken with wp.sqrt(wp.dot(d, d)), whose adjoint is infinite at d = 0, but only over the upper triangle j > i, so the zero-distance diagonal is never evaluated.
"""Matching a coarse-grained chain to a reference structure: 16-bead Kremer-Grest
chain relaxed by 15 Brownian-dynamics steps; the loss is the squared deviation of
its full distance matrix from a reference distance map, differentiated with
respect to the FENE parameters (k, R0).
"""
import numpy as np
import warp as wp

from _polymer import brownian_step, chain_forces, random_walk_chain

N_BEADS = 16
N_STEPS = 15
MU_DT = 4e-4


@wp.kernel
def distance_map_loss(x: wp.array(dtype=wp.vec3), d_ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    if j > i:  # the map is symmetric with a zero diagonal: upper triangle only
        d = x[i] - x[j]
        r = wp.sqrt(wp.dot(d, d))
        dev = r - d_ref[i, j]
        n = float(x.shape[0])
        wp.atomic_add(loss, 0, 2.0 * dev * dev / (n * n))


X0 = random_walk_chain(N_BEADS, 0.97, seed=51)
X_REF = random_walk_chain(N_BEADS, 0.97, seed=52)
D_REF = np.linalg.norm(X_REF[:, None] - X_REF[None], axis=-1).astype(np.float32)
XI = np.random.default_rng(53).standard_normal((N_STEPS, N_BEADS, 3)).astype(np.float32)
PARAMS0 = np.array([30.0, 1.5])
FD_EPS = [0.05, 1e-3]


def evaluate(p):
    fene = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    noise = wp.array(XI, dtype=wp.vec3)
    amp = float(np.sqrt(2.0 * MU_DT))
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(N_STEPS):
            f = wp.zeros(N_BEADS, dtype=wp.vec3, requires_grad=True)
            wp.launch(chain_forces, dim=N_BEADS, inputs=[x, fene], outputs=[f])
            x_new = wp.empty_like(x)
            wp.launch(brownian_step, dim=N_BEADS, inputs=[x, f, noise[s], MU_DT, amp], outputs=[x_new])
            x = x_new
        wp.launch(distance_map_loss, dim=(N_BEADS, N_BEADS), inputs=[x, wp.array(D_REF, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), fene.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"distance-map loss {L:.4f}; d/d(k, R0) = {g}")
