# correct: 1-D FWI with a host-side misfit whose adjoint source is d_syn - d_obs, the derivative of 0.5 ||d_syn - d_obs||^2
"""1-D FWI with a host-side misfit: the classic adjoint-source formulation.

The synthetic traces are computed on the device (helper _wave1d.py); the
L2 misfit 0.5 * ||d_syn - d_obs||^2 and its adjoint source are formed in
NumPy, and the adjoint source seeds the backward pass through the traces.
"""
import numpy as np
import warp as wp

from _wave1d import Acoustic1D, synthetic_data

TRUE_NODES = [1500.0, 1750.0, 2250.0, 2050.0, 2500.0]
OBS = synthetic_data(TRUE_NODES).numpy()
SIM = Acoustic1D()
PARAMS0 = [1550.0, 1700.0, 2150.0, 2150.0, 2450.0]
FD_EPS = 1.0


def evaluate(p):
    nodes = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        syn = SIM.forward(nodes)
    residual = syn.numpy() - OBS
    misfit = 0.5 * float(np.sum(residual.astype(np.float64) ** 2))
    adj_src = residual
    tape.backward(grads={syn: wp.array(adj_src, dtype=float)})
    g = nodes.grad.numpy().astype(np.float64).copy()
    tape.zero()
    return misfit, g


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  nodes {np.round(p, 1)}")
        p = p - 20.0 * g / (np.abs(g).max() + 1e-12)
