"""Corey exponents of a core from a waterflood experiment (Buckley-Leverett).

Water is injected at the left of a 1-D core initially at residual water
saturation (normalised s = 0). The fractional flow f = krw / (krw + M kro)
with Corey curves krw = s^nw, kro = (1 - s)^no (helper _corey.py) is
advanced with an explicit upwind scheme; the effluent water cut and two
in-situ saturation probes are history-matched.
"""
import numpy as np
import warp as wp

from _corey import corey

N = 40
NSTEPS = 80
CFL = 0.3
MOB_RATIO = 2.0
PROBES = np.array([10, 20], dtype=np.int32)


@wp.func
def frac_flow(s: float, nw: float, no: float):
    krw = corey(s, nw)
    kro = corey(1.0 - s, no)
    return krw / (krw + MOB_RATIO * kro)


@wp.kernel
def upwind_step(s: wp.array(dtype=float), expo: wp.array(dtype=float), cfl: float, n: int,
                s_out: wp.array(dtype=float), cut: wp.array(dtype=float)):
    i = wp.tid()
    f_in = float(1.0)
    if i > 0:
        f_in = frac_flow(s[i - 1], expo[0], expo[1])
    f_out = frac_flow(s[i], expo[0], expo[1])
    s_out[i] = s[i] - cfl * (f_out - f_in)
    if i == N - 1:
        cut[n] = f_out


@wp.kernel
def history_match(cut: wp.array(dtype=float), cut_obs: wp.array(dtype=float), sat: wp.array2d(dtype=float),
                  sat_obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n = wp.tid()
    d = cut[n] - cut_obs[n]
    e0 = sat[n, 0] - sat_obs[n, 0]
    e1 = sat[n, 1] - sat_obs[n, 1]
    wp.atomic_add(loss, 0, d * d + e0 * e0 + e1 * e1)


@wp.kernel
def probe(s: wp.array(dtype=float), probes: wp.array(dtype=wp.int32), n: int, sat: wp.array2d(dtype=float)):
    k = wp.tid()
    sat[n, k] = s[probes[k]]


PROBE_IDX = wp.array(PROBES, dtype=wp.int32)


def flood(expo):
    s = wp.zeros(N, dtype=float, requires_grad=True)
    cut = wp.zeros(NSTEPS, dtype=float, requires_grad=True)
    sat = wp.zeros((NSTEPS, len(PROBES)), dtype=float, requires_grad=True)
    for n in range(NSTEPS):
        s_new = wp.zeros_like(s)
        wp.launch(upwind_step, dim=N, inputs=[s, expo, CFL, n], outputs=[s_new, cut])
        wp.launch(probe, dim=len(PROBES), inputs=[s_new, PROBE_IDX, n], outputs=[sat])
        s = s_new
    return cut, sat


CUT_OBS, SAT_OBS = [wp.clone(a) for a in flood(wp.array([2.5, 2.0], dtype=float))]
PARAMS0 = [2.0, 2.4]
FD_EPS = 1e-3


def evaluate(p):
    expo = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        cut, sat = flood(expo)
        wp.launch(history_match, dim=NSTEPS, inputs=[cut, CUT_OBS, sat, SAT_OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), expo.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  nw {p[0]:.3f} no {p[1]:.3f}  grad {g}")
        p = p - 0.1 * g / (np.abs(g).max() + 1e-12)
