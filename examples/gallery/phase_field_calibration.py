"""Calibrate the interface width of an Allen-Cahn model against a reference coarsening snapshot."""

import numpy as np
import warp as wp

from _sim import PhaseFieldSim

RES = 24
STEPS = 10


@wp.kernel
def snapshot_misfit(phi: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = phi[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


def initial_field(seed=4):
    rng = np.random.default_rng(seed)
    return rng.uniform(-0.6, 0.6, (RES, RES)).astype(np.float32)


def main():
    phi0 = initial_field()

    reference_sim = PhaseFieldSim(RES)
    reference_sim.load(phi0)
    ref = wp.clone(reference_sim.run(wp.array([0.03], dtype=float), STEPS))

    sim = PhaseFieldSim(RES, requires_grad=True)
    width = wp.array([0.05], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 2e-5
    for it in range(15):
        sim.load(phi0)
        loss.zero_()
        tape = wp.Tape()
        with tape:
            phi = sim.run(width, STEPS)
            wp.launch(snapshot_misfit, dim=sim.shape, inputs=[phi, ref], outputs=[loss])
        tape.backward(loss)
        g = width.grad.numpy()[0]
        if it % 3 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.6f} width {width.numpy()[0]:.5f} grad {g:.4f}")
        width.assign(np.maximum(width.numpy() - lr * g, 1e-3))
        tape.zero()

    print("interface width", width.numpy()[0], "(reference 0.03)")


if __name__ == "__main__":
    main()
