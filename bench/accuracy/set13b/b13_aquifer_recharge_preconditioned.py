"""Monthly groundwater recharge from observation-well hydrographs.

Linearised Boussinesq equation for a 1-D unconfined aquifer between two
rivers; recharge is uniform in space and piecewise constant per month. The
gradient is smoothed over months (a simple preconditioner) before a
descent step on the device.
"""
import numpy as np
import warp as wp

NX = 50
MONTHS = 6
STEPS_PER_MONTH = 15
DT = 0.5
TRANS = 0.8
WELLS = np.array([10, 25, 40], dtype=np.int32)


@wp.kernel
def boussinesq(h: wp.array(dtype=float), rech: wp.array(dtype=float), month: int, dt: float,
               h_out: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0 or i == NX - 1:
        h_out[i] = 0.0
        return
    h_out[i] = h[i] + dt * (TRANS * (h[i - 1] - 2.0 * h[i] + h[i + 1]) + rech[month])


@wp.kernel
def well_misfit(h: wp.array(dtype=float), wells: wp.array(dtype=wp.int32), obs: wp.array2d(dtype=float),
                month: int, loss: wp.array(dtype=float)):
    w = wp.tid()
    d = h[wells[w]] - obs[month, w]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def smooth_months(g: wp.array(dtype=float), g_s: wp.array(dtype=float)):
    k = wp.tid()
    a = g[wp.max(k - 1, 0)]
    b = g[wp.min(k + 1, MONTHS - 1)]
    g_s[k] = 0.25 * a + 0.5 * g[k] + 0.25 * b


@wp.kernel
def descend(x: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    k = wp.tid()
    x[k] = x[k] - lr * g[k]


WELL_IDX = wp.array(WELLS, dtype=wp.int32)


def simulate(rech, loss=None, obs=None):
    h = wp.zeros(NX, dtype=float, requires_grad=True)
    heads = np.zeros((MONTHS, len(WELLS)), dtype=np.float32)
    for m in range(MONTHS):
        for _ in range(STEPS_PER_MONTH):
            h_new = wp.zeros(NX, dtype=float, requires_grad=True)
            wp.launch(boussinesq, dim=NX, inputs=[h, rech, m, DT], outputs=[h_new])
            h = h_new
        if loss is None:
            heads[m] = h.numpy()[WELLS]
        else:
            wp.launch(well_misfit, dim=len(WELLS), inputs=[h, WELL_IDX, obs, m], outputs=[loss])
    return heads


TRUE_R = np.array([0.02, 0.05, 0.08, 0.03, 0.0, 0.01], dtype=np.float32)
OBS = wp.array(simulate(wp.array(TRUE_R, dtype=float)), dtype=float)


def objective(rech):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    simulate(rech, loss, OBS)
    return loss


class RechargeInversion:
    def __init__(self, lr=2e-4):
        self.r = wp.full(MONTHS, 0.03, dtype=float, requires_grad=True)
        self.g_s = wp.zeros(MONTHS, dtype=float)
        self.lr = lr
        self.used = []

    def step(self):
        tape = wp.Tape()
        with tape:
            loss = objective(self.r)
        tape.backward(loss)
        g = self.r.grad  # expect: grad_read
        tape.zero()
        self.used.append((self.r.numpy().astype(np.float64).copy(), g.numpy().astype(np.float64).copy()))
        wp.launch(smooth_months, dim=MONTHS, inputs=[g], outputs=[self.g_s])
        wp.launch(descend, dim=MONTHS, inputs=[self.r, self.g_s, self.lr])
        return float(loss.numpy()[0])


def verify():
    inv = RechargeInversion()
    for _ in range(3):
        inv.step()
    p, g = inv.used[-1]
    eps = 1e-3
    fd = np.zeros_like(p)
    for k in range(p.size):
        vals = []
        for s in (1.0, -1.0):
            q = p.copy(); q[k] += s * eps
            vals.append(float(objective(wp.array(q.astype(np.float32), dtype=float)).numpy()[0]))
        fd[k] = (vals[0] - vals[1]) / (2.0 * eps)
    return g, fd


if __name__ == "__main__":
    inv = RechargeInversion()
    for it in range(4):
        f = inv.step()
        print(f"iter {it}: misfit {f:.5e}  recharge {np.round(inv.r.numpy(), 4)}")
