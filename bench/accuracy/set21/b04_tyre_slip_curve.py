"""Tyre longitudinal force vs slip (brush model, helper _tire.py): fit the
tread stiffness and friction coefficient to a trailer test run."""
import numpy as np
import warp as wp

from _tire import brush_force

wp.config.quiet = True

SLIP = np.linspace(0.01, 0.35, 24).astype(np.float32)
LOAD = (3.5 + 0.5 * np.cos(np.arange(24))).astype(np.float32)  # kN


@wp.kernel
def tyre_force(p: wp.array(dtype=float), slip: wp.array(dtype=float), load: wp.array(dtype=float),
               fx: wp.array(dtype=float)):
    i = wp.tid()
    fx[i] = load[i] * brush_force(slip[i], p[0] * 10.0, p[1])


@wp.kernel
def huber_misfit(fx: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = fx[i] - obs[i]
    a = wp.abs(r)
    v = 0.5 * r * r
    if a > 0.5:
        v = 0.5 * (a - 0.25)
    wp.atomic_add(loss, 0, v)


class TrailerTest:
    def __init__(self):
        self.slip = wp.array(SLIP, dtype=float)
        self.load = wp.array(LOAD, dtype=float)
        self.fx = wp.zeros(len(SLIP), dtype=float, requires_grad=True)

    def forces(self, params):
        wp.launch(tyre_force, dim=len(SLIP), inputs=[params, self.slip, self.load], outputs=[self.fx])
        return self.fx


def _obs():
    t = TrailerTest()
    return t.forces(wp.array([2.2, 0.95], dtype=float)).numpy().copy()


OBS = _obs()
PARAMS0 = np.array([1.8, 0.8])


def evaluate(p):
    test = TrailerTest()
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        fx = test.forces(params)
        wp.launch(huber_misfit, dim=len(SLIP), inputs=[fx, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.02 * g
    print(f"loss {loss:.5f}  stiffness={p[0]:.3f}  mu={p[1]:.3f}")
