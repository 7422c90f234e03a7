"""Fit a chemostat's uptake rate; each thread integrates its vessel in a 2-D trajectory, two slots per day.

Row `v` holds substrate and biomass interleaved: day `d` reads slots `2d`
and `2d + 1` and stores day `d + 1` at `2d + 2` and `2d + 3`. Every slot is
stored once, before the iteration that reads it, and the first two are
stored before the loop: no value the adjoint needs is overwritten, so the
gradient is right (quiet).
"""

import numpy as np
import warp as wp

N_VESSELS = 5
DAYS = 10


@wp.kernel
def integrate(k: wp.array(dtype=float), s0: wp.array(dtype=float), n_days: int,
              traj: wp.array2d(dtype=float), final: wp.array(dtype=float)):
    v = wp.tid()
    traj[v, 0] = s0[v]
    traj[v, 1] = 0.1
    for day in range(n_days):
        s = traj[v, 2 * day]
        b = traj[v, 2 * day + 1]
        uptake = k[0] * s * b / (1.0 + s)
        traj[v, 2 * day + 2] = s - 0.1 * uptake  # note: TW104
        traj[v, 2 * day + 3] = b + 0.05 * uptake  # note: TW104
    final[v] = traj[v, 2 * n_days + 1]


@wp.kernel
def misfit(final: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    v = wp.tid()
    r = final[v] - obs[v]
    wp.atomic_add(loss, 0, r * r)


def main():
    rng = np.random.default_rng(3)
    s0 = wp.array(rng.uniform(2.0, 4.0, N_VESSELS).astype(np.float32), dtype=float)
    obs = wp.array(rng.uniform(0.2, 0.4, N_VESSELS).astype(np.float32), dtype=float)
    k = wp.array([0.8], dtype=float, requires_grad=True)
    for _ in range(3):
        traj = wp.zeros((N_VESSELS, 2 * DAYS + 2), dtype=float, requires_grad=True)
        final = wp.zeros(N_VESSELS, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(integrate, dim=N_VESSELS, inputs=[k, s0, DAYS], outputs=[traj, final])
            wp.launch(misfit, dim=N_VESSELS, inputs=[final, obs], outputs=[loss])
        tape.backward(loss)
        k.assign(k.numpy() - 1e-2 * k.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
