"""Fit a heat-sink's fin conductances across a host step the program bridges itself.

The fin temperatures leave Warp (`wp.array(temps.numpy())`) on the tape, but
the program carries the gradient across that step by hand: it reads the
copy's gradient after backward() and seeds a re-recorded conduction stage
with it, so the conductances get the whole gradient.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def conduct(k: wp.array(dtype=float), t_base: float, temps: wp.array(dtype=float)):
    i = wp.tid()
    temps[i] = t_base / (1.0 + k[i] * float(i + 1) * 0.1)


@wp.kernel
def radiate(temps: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()
    t = temps[i] * 0.01
    flux[i] = t * t * t * t


def main():
    k = wp.array(np.linspace(0.5, 1.5, N, dtype=np.float32), requires_grad=True)
    target = np.full(N, 120.0, dtype=np.float32)
    for _ in range(3):
        tape = wp.Tape()
        with tape:
            temps = wp.zeros(N, requires_grad=True)
            wp.launch(conduct, dim=N, inputs=[k, 350.0], outputs=[temps])
            boundary = wp.array(temps.numpy(), dtype=float, requires_grad=True)
            flux = wp.zeros(N, requires_grad=True)
            wp.launch(radiate, dim=N, inputs=[boundary], outputs=[flux])
        residual = flux.numpy() - target
        tape.backward(grads={flux: wp.array(2.0 * residual / N, dtype=float)})
        carried = boundary.grad.numpy().copy()  # the adjoint at the host step, carried across by hand
        tape.zero()
        stage = wp.Tape()
        with stage:
            again = wp.zeros(N, requires_grad=True)
            wp.launch(conduct, dim=N, inputs=[k, 350.0], outputs=[again])
        stage.backward(grads={again: wp.array(carried, dtype=float)})
        k.assign(k.numpy() - 1e-5 * k.grad.numpy())
        stage.zero()


if __name__ == "__main__":
    main()
