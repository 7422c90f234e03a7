"""Fit a heat sink's fin efficiency from two thermocouples; a method names the member array twice.

`t_tip = self.temp` makes a second name for the base temperatures that
`fin_flux` read; the launch writing the tip temperatures into `t_tip`
overwrites them, so `fin_flux`'s adjoint replays with the tip values. The
alias is the line to change (give the tip its own array).
"""

import numpy as np
import warp as wp

N = 6


@wp.kernel
def fin_flux(temp: wp.array(dtype=float), p: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()
    flux[i] = p[0] * wp.tanh(p[1] * temp[i]) * temp[i]


@wp.kernel
def tip_temperature(temp: wp.array(dtype=float), p: wp.array(dtype=float), t_out: wp.array(dtype=float)):
    i = wp.tid()
    t_out[i] = temp[i] / wp.cosh(p[1] * 2.0)


@wp.kernel
def misfit(a: wp.array(dtype=float), b: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    r = a[i] + 0.1 * b[i] - target
    wp.atomic_add(loss, 0, r * r)


class HeatSink:
    def __init__(self):
        self.temp = wp.array(np.linspace(0.5, 1.5, N).astype(np.float32), dtype=float, requires_grad=True)
        self.flux = wp.zeros(N, dtype=float, requires_grad=True)

    def loss(self, p):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(fin_flux, dim=N, inputs=[self.temp, p], outputs=[self.flux])
        t_tip = self.temp  # expect: TW101  # expect: TW105
        wp.launch(tip_temperature, dim=N, inputs=[self.temp, p], outputs=[t_tip])
        wp.launch(misfit, dim=N, inputs=[self.flux, t_tip, 0.4], outputs=[loss])
        return loss


if __name__ == "__main__":
    p = wp.array([0.8, 0.6], dtype=float, requires_grad=True)
    sink = HeatSink()
    tape = wp.Tape()
    with tape:
        loss = sink.loss(p)
    tape.backward(loss)
    print("loss", loss.numpy()[0], "gradient", p.grad.numpy())
