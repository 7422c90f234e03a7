"""Physics-informed fit of a damped oscillator u'' + 2 zeta w u' + w^2 u = 0,
u(0) = 1, u'(0) = 0, with a polynomial-plus-harmonic trial space: the loss is
the mean squared ODE residual at collocation points plus the initial
conditions."""
from dataclasses import dataclass, field

import numpy as np
import warp as wp

wp.config.quiet = True

NC = 50
OMEGA = 3.0
ZETA = 0.15
T_END = 1.5
PARAMS0 = [1.0, -0.2, -3.5, 1.0, 0.1]


@wp.kernel
def trial_jet(t: wp.array(dtype=float), a: wp.array(dtype=float), jet: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = t[i]
    u = a[0] + a[1] * s + a[2] * s * s + a[3] * s * s * s + a[4] * wp.cos(OMEGA * s)
    du = a[1] + 2.0 * a[2] * s + 3.0 * a[3] * s * s - OMEGA * a[4] * wp.sin(OMEGA * s)
    ddu = 2.0 * a[2] + 6.0 * a[3] * s - OMEGA * OMEGA * a[4] * wp.cos(OMEGA * s)
    jet[i] = wp.vec3(u, du, ddu)


@wp.kernel
def ode_residual(jet: wp.array(dtype=wp.vec3), resid: wp.array(dtype=float)):
    i = wp.tid()
    j = jet[i]
    resid[i] = j[2] + 2.0 * ZETA * OMEGA * j[1] + OMEGA * OMEGA * j[0]


@wp.kernel
def pinn_loss(resid: wp.array(dtype=float), jet: wp.array(dtype=wp.vec3), w_ic: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    n = resid.shape[0]
    r = resid[i]
    wp.atomic_add(loss, 0, r * r / float(n))
    if i == 0:
        j = jet[0]
        wp.atomic_add(loss, 0, w_ic * ((j[0] - 1.0) * (j[0] - 1.0) + j[1] * j[1]))


@dataclass
class Collocation:
    n: int
    t: wp.array = field(init=False)
    jet: wp.array = field(init=False)
    resid: wp.array = field(init=False)

    def __post_init__(self):
        self.t = wp.array(np.linspace(0.0, T_END, self.n).astype(np.float32), dtype=float)
        self.jet = wp.zeros(self.n, dtype=wp.vec3, requires_grad=True)
        self.resid = wp.zeros(self.n, dtype=float)  # expect: requires_grad


def evaluate(p):
    col = Collocation(NC)
    a = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(trial_jet, dim=col.n, inputs=[col.t, a], outputs=[col.jet])
        wp.launch(ode_residual, dim=col.n, inputs=[col.jet], outputs=[col.resid])
        wp.launch(pinn_loss, dim=col.n, inputs=[col.resid, col.jet, 10.0], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), a.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(300):
        l, g = evaluate(p)
        p -= 1.0e-4 * g
        if it % 100 == 0:
            print(f"iter {it} physics loss {l:.4f}")
    print("coefficients", np.round(p, 3))
