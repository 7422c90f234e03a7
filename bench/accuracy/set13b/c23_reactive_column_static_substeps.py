# correct: reactive soil column whose per-cell reaction sub-cycling uses the compile-time constant NSUB (unrolled)
"""Biodegradation rate and seepage velocity of a reactive soil column.

A contaminant pulse is pushed through a 1-D column (first-order upwind
advection, operator splitting); within each transport step the stiff
second-order degradation dc/dt = -k c^2 / (1 + c) is sub-cycled per cell.
Effluent and mid-column concentrations are fitted.
"""
import numpy as np
import warp as wp

N = 40
NSTEPS = 50
DT = 0.5
DX = 1.0
NSUB = wp.constant(4)
PROBES = np.array([10, 20, 39], dtype=np.int32)


@wp.kernel
def inflow_pulse(c: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) - 5.0
    c[i] = 3.0 * wp.exp(-x * x / 6.0)


@wp.kernel
def transport_react(c: wp.array(dtype=float), prm: wp.array(dtype=float), dt: float,
                    c_out: wp.array(dtype=float)):
    i = wp.tid()
    v = prm[1]
    upstream = float(0.0)
    if i > 0:
        upstream = c[i - 1]
    ci = c[i] - v * dt / DX * (c[i] - upstream)
    h = dt / float(NSUB)
    for s in range(NSUB):
        ci = ci - h * prm[0] * ci * ci / (1.0 + ci)
    c_out[i] = ci


@wp.kernel
def probe_misfit(c: wp.array(dtype=float), probes: wp.array(dtype=wp.int32), obs: wp.array2d(dtype=float), n: int,
                 loss: wp.array(dtype=float)):
    p = wp.tid()
    d = c[probes[p]] - obs[n, p]
    wp.atomic_add(loss, 0, d * d)


PROBE_IDX = wp.array(PROBES, dtype=wp.int32)


def flush(prm, loss=None, obs=None):
    c = wp.zeros(N, dtype=float, requires_grad=True)
    wp.launch(inflow_pulse, dim=N, inputs=[], outputs=[c])
    rec = np.zeros((NSTEPS, len(PROBES)), dtype=np.float32)
    for n in range(NSTEPS):
        c_new = wp.zeros_like(c)
        wp.launch(transport_react, dim=N, inputs=[c, prm, DT], outputs=[c_new])
        c = c_new
        if loss is None:
            rec[n] = c.numpy()[PROBES]
        else:
            wp.launch(probe_misfit, dim=len(PROBES), inputs=[c, PROBE_IDX, obs, n], outputs=[loss])
    return rec


OBS = wp.array(flush(wp.array([1.2, 0.9], dtype=float)), dtype=float)
PARAMS0 = [0.8, 0.8]
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        flush(prm, loss, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  k {p[0]:.4f} v {p[1]:.4f}  grad {g}")
        p = p - 0.02 * g / (np.abs(g).max() + 1e-12)
