# correct: 1-D FWI with Adam and a fresh tape per iteration, zeroed with tape.zero() after the optimiser step
"""Full-waveform inversion of a 1-D velocity profile with warp.optim.Adam.

Five velocity control nodes are updated by Adam from the L2 trace misfit at
four receivers (helper _wave1d.py). A new tape is made every iteration.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

from _wave1d import Acoustic1D, synthetic_data

TRUE_NODES = [1500.0, 1800.0, 2300.0, 2100.0, 2600.0]
START = [1600.0, 1700.0, 2200.0, 2200.0, 2500.0]
ITERS = 4
OBS = synthetic_data(TRUE_NODES)


@wp.kernel
def trace_misfit(traces: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    t, r = wp.tid()
    d = traces[t, r] - obs[t, r]
    wp.atomic_add(loss, 0, 0.5 * d * d)


SIM = Acoustic1D()


def misfit(nodes):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    traces = SIM.forward(nodes)
    wp.launch(trace_misfit, dim=traces.shape, inputs=[traces, OBS], outputs=[loss])
    return loss


def invert(iters=ITERS, log=False):
    vel = wp.array(np.array(START, dtype=np.float32), dtype=float, requires_grad=True)
    opt = Adam([vel], lr=15.0)
    used = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = misfit(vel)
        tape.backward(loss)
        used.append((vel.numpy().astype(np.float64).copy(), vel.grad.numpy().astype(np.float64).copy()))
        if log:
            print(f"iter {it}: misfit {loss.numpy()[0]:.4e}  nodes {np.round(vel.numpy(), 1)}")
        opt.step([vel.grad])
        tape.zero()
    return used


def verify():
    used = invert()
    p, g = used[-1]
    eps = 1.0
    fd = np.zeros_like(p)
    for k in range(p.size):
        lp = p.copy(); lp[k] += eps
        lm = p.copy(); lm[k] -= eps
        fp = misfit(wp.array(lp.astype(np.float32), dtype=float)).numpy()[0]
        fm = misfit(wp.array(lm.astype(np.float32), dtype=float)).numpy()[0]
        fd[k] = (float(fp) - float(fm)) / (2.0 * eps)
    return g, fd


if __name__ == "__main__":
    invert(log=True)
