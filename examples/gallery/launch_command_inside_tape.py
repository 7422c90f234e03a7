"""A heat-exchanger model that prepares its conduction launch once as a launch command
(``wp.launch(..., record_cmd=True)``) to cut launch overhead, and replays it with ``cmd.launch()`` inside the
tape: a launch command is never recorded on a tape (NVIDIA/warp#522), so the gradient of the loss with
respect to the conductance is silently zero."""

import numpy as np
import warp as wp

wp.config.quiet = True

CELLS = 32


@wp.kernel
def conduct(temp: wp.array(dtype=float), conductance: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()
    flux[i] = conductance[0] * (temp[i] - 20.0) * wp.exp(-0.01 * float(i))


@wp.kernel
def mismatch(flux: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = flux[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


class Exchanger:
    def __init__(self):
        self.temp = wp.array(np.linspace(60.0, 25.0, CELLS).astype(np.float32))
        self.conductance = wp.array([0.4], dtype=float, requires_grad=True)
        self.flux = wp.zeros(CELLS, dtype=float, requires_grad=True)
        self.step = wp.launch(conduct, dim=CELLS, inputs=[self.temp, self.conductance], outputs=[self.flux],
                              record_cmd=True)

    def run(self):
        self.step.launch()  # expect: TW207


ex = Exchanger()
target = wp.array((0.55 * (ex.temp.numpy() - 20.0) * np.exp(-0.01 * np.arange(CELLS))).astype(np.float32))
for it in range(3):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        ex.run()
        wp.launch(mismatch, dim=CELLS, inputs=[ex.flux, target], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0], "d loss / d conductance", ex.conductance.grad.numpy()[0])
    ex.conductance.assign(ex.conductance.numpy() - 1e-4 * ex.conductance.grad.numpy())
    tape.zero()
