"""Sorption retardation factors of a two-layer soil from tracer breakthrough curves.

2-D advection-dispersion of a tracer entering from the left boundary
(c = 1) with a uniform seepage velocity; linear equilibrium sorption slows
transport by the retardation factor R of each soil layer:
dc/dt = (D lap c - v dc/dx) / R.
"""
import numpy as np
import warp as wp

NX, NY = 30, 16
NSTEPS = 90
DT = 0.3
DISP = 0.5
VX = 0.6
PROBES = np.array([[6, 4], [12, 4], [18, 4], [6, 12], [12, 12], [18, 12]], dtype=np.int32)


@wp.kernel
def advect_disperse(c: wp.array2d(dtype=float), retard: wp.array(dtype=float), dt: float,
                    c_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0:
        c_out[i, j] = 1.0
        return
    if i == NX - 1:
        c_out[i, j] = c[i - 1, j]
        return
    jm = wp.max(j - 1, 0)
    jp = wp.min(j + 1, NY - 1)
    lap = c[i - 1, j] + c[i + 1, j] + c[i, jm] + c[i, jp] - 4.0 * c[i, j]
    dcdx = c[i, j] - c[i - 1, j]
    layer = j * 2 // NY
    c_out[i, j] = dt * (DISP * lap - VX * dcdx)
    c_out[i, j] /= retard[layer]  # expect: inplace_op
    c_out[i, j] += c[i, j]


@wp.kernel
def probe_misfit(c: wp.array2d(dtype=float), probes: wp.array2d(dtype=wp.int32), obs: wp.array2d(dtype=float),
                 t: int, loss: wp.array(dtype=float)):
    k = wp.tid()
    d = c[probes[k, 0], probes[k, 1]] - obs[t, k]
    wp.atomic_add(loss, 0, d * d)


PROBE_IDX = wp.array(PROBES, dtype=wp.int32)


def breakthrough(retard, loss=None, obs=None):
    c = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    curves = np.zeros((NSTEPS, len(PROBES)), dtype=np.float32)
    for t in range(NSTEPS):
        c_new = wp.zeros_like(c)
        wp.launch(advect_disperse, dim=(NX, NY), inputs=[c, retard, DT], outputs=[c_new])
        c = c_new
        if loss is None:
            curves[t] = c.numpy()[PROBES[:, 0], PROBES[:, 1]]
        elif t % 10 == 9:
            wp.launch(probe_misfit, dim=len(PROBES), inputs=[c, PROBE_IDX, obs, t], outputs=[loss])
    return curves


OBS = wp.array(breakthrough(wp.array([1.8, 3.2], dtype=float)), dtype=float)
PARAMS0 = [2.5, 2.5]
FD_EPS = 1e-2


def evaluate(p):
    retard = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        breakthrough(retard, loss, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), retard.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  R {np.round(p, 3)}  grad {g}")
        p = np.maximum(p - 0.2 * g / (np.abs(g).max() + 1e-12), 1.0)
