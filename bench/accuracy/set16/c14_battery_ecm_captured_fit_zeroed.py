# correct: the captured iteration ends by zeroing the parameter gradient, so every replay starts from a clean gradient
"""Thevenin equivalent-circuit model of NMC pouch cells (series resistance
R0, one RC pair R1 / tau, resistances in mOhm) fitted to HPPC pulse voltages by gradient
descent. The whole iteration (forward, backward, update) is captured once
into a graph and replayed.

    V = OCV(soc) - I R0 - V1,  V1[n+1] = V1[n] a + R1 (1 - a) I[n],  a = exp(-dt / tau)
"""
import numpy as np
import warp as wp

from _ecm_data import DT, N_CELL, N_STEPS, current_profiles, measured_voltage, ocv, soc

wp.config.quiet = True

LR = np.array([4.0e-3, 1.5e-2, 0.05], dtype=np.float32)  # per-parameter step sizes (R0, R1 in mOhm; tau in s)
_i = current_profiles()
CURRENT = wp.array(_i, dtype=float)
OCV = wp.array(ocv(soc(_i)).astype(np.float32), dtype=float)
V_MEAS = wp.array(measured_voltage(), dtype=float)


@wp.kernel
def rc_step(prm: wp.array(dtype=float), cur: wp.array2d(dtype=float), n: int, v1: wp.array2d(dtype=float)):
    c = wp.tid()
    a = wp.exp(-DT / prm[2])
    v1[n + 1, c] = v1[n, c] * a + 0.001 * prm[1] * (1.0 - a) * cur[n, c]


@wp.kernel
def voltage_misfit(prm: wp.array(dtype=float), cur: wp.array2d(dtype=float), ocv_: wp.array2d(dtype=float),
                   v1: wp.array2d(dtype=float), v_meas: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, c = wp.tid()
    v = ocv_[n, c] - cur[n, c] * 0.001 * prm[0] - v1[n + 1, c]
    d = 1000.0 * (v - v_meas[n, c])  # mV
    wp.atomic_add(loss, 0, d * d / float(N_STEPS * N_CELL))


@wp.kernel
def descend(prm: wp.array(dtype=float), grad: wp.array(dtype=float), lr: wp.array(dtype=float),
            used: wp.array(dtype=float)):
    i = wp.tid()
    used[i] = grad[i]
    prm[i] = prm[i] - lr[i] * grad[i]


def record(tape, prm, v1, loss):
    with tape:
        for n in range(N_STEPS):
            wp.launch(rc_step, dim=N_CELL, inputs=[prm, CURRENT, n], outputs=[v1])
        wp.launch(voltage_misfit, dim=(N_STEPS, N_CELL), inputs=[prm, CURRENT, OCV, v1, V_MEAS], outputs=[loss])


class EcmFit:
    def __init__(self, p0):
        self.prm = wp.array(np.asarray(p0, dtype=np.float32), dtype=float, requires_grad=True)
        self.v1 = wp.zeros((N_STEPS + 1, N_CELL), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.used = wp.zeros(3, dtype=float)
        self.lr = wp.array(LR, dtype=float)
        self.tape = wp.Tape()
        with wp.ScopedCapture() as cap:
            self.loss.zero_()
            record(self.tape, self.prm, self.v1, self.loss)
            self.tape.backward(self.loss)
            wp.launch(descend, dim=3, inputs=[self.prm, self.prm.grad, self.lr], outputs=[self.used])
            self.prm.grad.zero_()
        self.graph = cap.graph

    def step(self):
        wp.capture_launch(self.graph)
        return float(self.loss.numpy()[0])


def objective(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    v1 = wp.zeros((N_STEPS + 1, N_CELL), dtype=float)
    loss = wp.zeros(1, dtype=float)
    record(wp.Tape(), prm, v1, loss)
    return float(loss.numpy()[0])


P0 = [15.0, 10.0, 25.0]


def verify():
    fit = EcmFit(P0)
    for _ in range(4):
        fit.step()
    p = fit.prm.numpy().astype(np.float64)
    fit.step()
    g = fit.used.numpy().copy()
    eps = np.array([1e-2, 1e-2, 1e-2])
    fd = []
    for k in range(3):
        pp, pm = p.copy(), p.copy()
        pp[k] += eps[k]
        pm[k] -= eps[k]
        fd.append((objective(pp) - objective(pm)) / (2 * eps[k]))
    return g, np.array(fd)


if __name__ == "__main__":
    fit = EcmFit(P0)
    for it in range(40):
        mse = fit.step()
    r0, r1, tau = fit.prm.numpy()
    print(f"voltage MSE {mse:.3f} mV^2; R0={r0:.1f} mOhm R1={r1:.1f} mOhm tau={tau:.1f} s")
