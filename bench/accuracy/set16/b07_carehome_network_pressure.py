"""Individual-based SIS mean-field model on a village contact network:
expected new infections among care-home residents tomorrow, and its
sensitivity to the transmission rate beta and the recovery rate gamma.

The per-node force of infection at the end of the simulation is kept in an
array whose gradient is retained for the sensitivity map (which residents'
exposure drives the forecast); the hotspot report and the forecast both ask
the model for it.
"""
import numpy as np
import warp as wp

from _contact_net import CARE_HOME, I0, MAX_DEG, N_NODE, device_arrays

wp.config.quiet = True

DT = 0.5
N_STEPS = 40


@wp.kernel
def sis_step(prev: wp.array(dtype=float), nbr: wp.array2d(dtype=int), cw: wp.array2d(dtype=float),
             prm: wp.array(dtype=float), nxt: wp.array(dtype=float)):
    i = wp.tid()
    lam = float(0.0)
    for k in range(MAX_DEG):
        lam += cw[i, k] * prev[nbr[i, k]]
    p = prev[i]
    nxt[i] = p + DT * (prm[0] * (1.0 - p) * lam - prm[1] * p)


@wp.kernel
def force_of_infection(prev: wp.array(dtype=float), nbr: wp.array2d(dtype=int), cw: wp.array2d(dtype=float),
                       prm: wp.array(dtype=float), lam: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for k in range(MAX_DEG):
        s += cw[i, k] * prev[nbr[i, k]]
    lam[i] = prm[0] * s


@wp.kernel
def count_hotspots(lam: wp.array(dtype=float), level: float, n_hot: wp.array(dtype=int)):
    i = wp.tid()
    if lam[i] > level:
        wp.atomic_add(n_hot, 0, 1)


@wp.kernel
def carehome_forecast(prev: wp.array(dtype=float), lam: wp.array(dtype=float), care: wp.array(dtype=float),
                      out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, care[i] * (1.0 - prev[i]) * lam[i])


class VillageOutbreak:
    def __init__(self, beta, gamma):
        self.net = device_arrays()
        self.prm = wp.array([beta, gamma], dtype=float, requires_grad=True)
        self.care = wp.array(CARE_HOME, dtype=float)
        self.lam = wp.zeros(N_NODE, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
        self.n_hot = wp.zeros(1, dtype=int)

    def run(self):
        prev = wp.array(I0, dtype=float, requires_grad=True)
        for _ in range(N_STEPS):
            nxt = wp.zeros(N_NODE, dtype=float, requires_grad=True)
            wp.launch(sis_step, dim=N_NODE, inputs=[prev, *self.net, self.prm], outputs=[nxt])
            prev = nxt
        return prev

    def pressure(self, prev):
        wp.launch(force_of_infection, dim=N_NODE, inputs=[prev, *self.net, self.prm], outputs=[self.lam])
        return self.lam

    def hotspots(self, prev, level=0.5):
        self.n_hot.zero_()
        wp.launch(count_hotspots, dim=N_NODE, inputs=[self.pressure(prev), level], outputs=[self.n_hot])
        return int(self.n_hot.numpy()[0])

    def forecast(self, prev, out):
        wp.launch(carehome_forecast, dim=N_NODE, inputs=[prev, self.pressure(prev), self.care], outputs=[out])


def evaluate(p):
    model = VillageOutbreak(float(p[0]), float(p[1]))
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        prev = model.run()
        model.hotspots(prev)
        model.forecast(prev, out)
    tape.backward(out)
    return float(out.numpy()[0]), model.prm.grad.numpy().copy()


PARAMS0 = np.array([0.22, 0.18])
FD_EPS = 1e-4

if __name__ == "__main__":
    model = VillageOutbreak(*PARAMS0)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        prev = model.run()
        n_hot = model.hotspots(prev)
        model.forecast(prev, out)
    tape.backward(out)
    top = np.argsort(-model.lam.grad.numpy())[:5]
    print(f"{n_hot} hotspot nodes; care-home forecast {out.numpy()[0]:.3f} new cases/day; "
          f"d/d(beta, gamma) = {model.prm.grad.numpy()}; most influential exposures: {top}")
