# correct: the stress power law x^p is evaluated only inside an if branch for x > 0, so rows at the wilting point never differentiate log(0)
"""Regulated deficit irrigation in a vineyard: fit the shape exponent and the
critical relative soil water of a transpiration stress function to sap-flow
measurements on six vine rows (a dry row reaches the wilting point)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_ROW = 6
N_DAY = 30
THETA_WP = 0.12


@wp.kernel
def sap_flow(p: wp.array(dtype=float), theta: wp.array2d(dtype=float), et_pot: wp.array(dtype=float),
             flow: wp.array2d(dtype=float)):
    r, d = wp.tid()
    x = wp.clamp((theta[r, d] - 0.12) / (p[1] - 0.12), 0.0, 1.0)
    ks = float(0.0)
    if x > 0.0:
        ks = wp.pow(x, p[0])
    flow[r, d] = ks * et_pot[d]


days = np.arange(N_DAY)
THETA_NP = np.stack([0.30 - (0.005 + 0.002 * j) * days for j in range(N_ROW)]).clip(THETA_WP, None).astype(np.float32)
ET_POT = (5.0 + 1.0 * np.sin(days / 4.0)).astype(np.float32)
THETA_W, ET_W = wp.array(THETA_NP, dtype=float), wp.array(ET_POT, dtype=float)


def flows(p_np, requires_grad=False):
    p_w = wp.array(np.asarray(p_np, dtype=np.float32), dtype=float, requires_grad=requires_grad)
    f = wp.zeros((N_ROW, N_DAY), dtype=float, requires_grad=requires_grad)
    return p_w, f


_p, _f = flows([0.7, 0.24])
wp.launch(sap_flow, dim=_f.shape, inputs=[_p, THETA_W, ET_W], outputs=[_f])
OBS = _f.numpy().astype(np.float64) + 0.05 * np.cos(np.arange(_f.size)).reshape(_f.shape)
PARAMS0 = np.array([0.8, 0.232])
FD_EPS = np.array([1e-3, 1e-4])


def evaluate(p):
    p_w, f = flows(p, True)
    tape = wp.Tape()
    with tape:
        wp.launch(sap_flow, dim=f.shape, inputs=[p_w, THETA_W, ET_W], outputs=[f])
    r = f.numpy().astype(np.float64) - OBS
    tape.backward(grads={f: wp.array((2.0 * r).astype(np.float32), dtype=float)})
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"sap-flow misfit {L:.4f} (mm/d)^2; grad [exponent, theta_crit] = {g}")
