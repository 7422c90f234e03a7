"""A cable net's per-cable tensions are kept with retain_grad=True to inspect their sensitivities.  A
leftover debugging call computes them once before the loss (`peek`, never used), and the loss computes
them again: the array is assigned twice on one tape, nothing reads the first values, and its retained
gradient reaches both writers, so the stiffness gradient doubles.  The leftover call is the line to drop
(the look-alike computes them once, in the loss)."""

import numpy as np
import warp as wp

C = 12


@wp.kernel
def cable_tension(stretch: wp.array(dtype=float), k: wp.array(dtype=float), t: wp.array(dtype=float)):
    c = wp.tid()
    s = stretch[c]
    t[c] = k[0] * s + k[1] * s * s * s


@wp.kernel
def sag_loss(t: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    c = wp.tid()
    d = t[c] - target
    wp.atomic_add(loss, 0, d * d / float(C))


class CableNet:
    def __init__(self, k):
        self.k = k
        self.stretch = wp.array(np.linspace(0.01, 0.2, C, dtype=np.float32))
        self.tension = wp.zeros(C, dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203

    def tensions(self):
        wp.launch(cable_tension, dim=C, inputs=[self.stretch, self.k], outputs=[self.tension])
        return self.tension

    def loss(self):
        out = wp.zeros(1, dtype=float, requires_grad=True)
        self.tensions()
        wp.launch(sag_loss, dim=C, inputs=[self.tension, 0.5], outputs=[out])
        return out


net = CableNet(wp.array([2.0, 30.0], dtype=float, requires_grad=True))
tape = wp.Tape()
with tape:
    peek = net.tensions()
    loss = net.loss()
tape.backward(loss)
print("tensions", net.tension.numpy()[:3], "d loss / d k", net.k.grad.numpy(),
      "most sensitive cable", int(np.argmax(np.abs(net.tension.grad.numpy()))))
