"""Calibrate a battery cell's diffusion time, keeping a gradient-free snapshot of the charge for a log.

The snapshot `wp.clone(soc, requires_grad=False)` is only printed; the
misfit kernel reads the taped charge itself, so the gradient is whole.
"""

import numpy as np
import warp as wp

N = 32


@wp.kernel
def discharge(tau: wp.array(dtype=float), soc: wp.array(dtype=float)):
    i = wp.tid()
    t = float(i) * 0.05
    soc[i] = wp.exp(-t / tau[0])


@wp.kernel
def voltage_misfit(soc: wp.array(dtype=float), measured: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    v = 3.0 + 1.2 * soc[i] - 0.1 * soc[i] * soc[i]
    r = v - measured[i]
    wp.atomic_add(loss, 0, r * r)


def main():
    tau = wp.array([0.8], dtype=float, requires_grad=True)
    t = np.arange(N) * 0.05
    s = np.exp(-t / 1.1)
    measured = wp.array((3.0 + 1.2 * s - 0.1 * s * s).astype(np.float32), dtype=float)
    for step in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        soc = wp.zeros(N, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(discharge, dim=N, inputs=[tau], outputs=[soc])
            soc_snapshot = wp.clone(soc, requires_grad=False)
            wp.launch(voltage_misfit, dim=N, inputs=[soc, measured], outputs=[loss])
        tape.backward(loss)
        print("step %d: end charge %.3f" % (step, soc_snapshot.numpy()[-1]))
        tau.assign(tau.numpy() - 0.05 * tau.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
