# tapewatch-test: warp>=1.19
# tapewatch-test: --check-launches
"""Calibrating heater gains with a training step captured once and replayed (``wp.ScopedCapture``, as
NVIDIA's examples do on a GPU): the forward and backward pass is one graph, the SGD update another, and
the update graph zeroes the gradient once the step used it (``tape.zero()``), so each replay
starts from zeros."""

import numpy as np
import warp as wp

wp.config.quiet = True

SENSORS = 16


@wp.kernel
def temperature_error(gain: wp.array(dtype=float), power: wp.array(dtype=float), measured: wp.array(dtype=float),
                      loss: wp.array(dtype=float)):
    i = wp.tid()
    d = gain[i] * power[i] + 18.0 - measured[i]
    wp.atomic_add(loss, 0, d * d / float(SENSORS))


@wp.kernel
def sgd(param: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    param[i] = param[i] - lr * grad[i]


class Calibration:
    def __init__(self):
        rng = np.random.default_rng(4)
        self.power = wp.array(rng.uniform(0.5, 2.0, SENSORS).astype(np.float32))
        self.measured = wp.array((18.0 + 3.0 * self.power.numpy()).astype(np.float32))
        self.gain = wp.ones(SENSORS, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        wp.load_module()
        with wp.ScopedCapture() as capture:
            self.loss.zero_()
            with self.tape:
                wp.launch(temperature_error, dim=SENSORS, inputs=[self.gain, self.power, self.measured],
                          outputs=[self.loss])
            self.tape.backward(self.loss)
        self.forward_backward = capture.graph
        with wp.ScopedCapture() as capture:
            wp.launch(sgd, dim=SENSORS, inputs=[self.gain, self.gain.grad, 0.2])
            self.tape.zero()
        self.update = capture.graph

    def step(self):
        wp.capture_launch(self.forward_backward)
        wp.capture_launch(self.update)


cal = Calibration()
for it in range(8):
    cal.step()
print("loss", cal.loss.numpy()[0], "gain", cal.gain.numpy()[:4])
