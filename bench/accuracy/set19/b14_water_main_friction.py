"""Head-loss calibration of a ductile-iron water main and its branches.

The trunk main's Darcy friction factor (Swamee-Jain, at the design flow) is
computed in one kernel and staged into a small parameter buffer that the
branch-loss kernel reads; branch head losses h = (f L / D + K) v^2 / (2 g) are
compared with pressure-logger differences. Wall roughness (mm) and the fitting
loss coefficient K are calibrated.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

D_TRUNK, Q_DESIGN, NU = 0.3, 0.09, 1.0e-6  # m, m^3/s, m^2/s
LEN = np.array([120.0, 340.0, 210.0, 500.0, 80.0])
FLOW = np.array([0.05, 0.07, 0.09, 0.06, 0.11])
H_LOGGED = np.array([0.21, 0.95, 0.90, 1.00, 0.36])  # m


@wp.kernel
def swamee_jain(par: wp.array(dtype=float), f: wp.array(dtype=float)):
    v = Q_DESIGN / (0.25 * wp.pi * D_TRUNK * D_TRUNK)
    re = v * D_TRUNK / NU
    arg = par[0] * 1.0e-3 / (3.7 * D_TRUNK) + 5.74 / wp.pow(re, 0.9)
    lg = wp.log(arg) / wp.log(10.0)
    f[0] = 0.25 / (lg * lg)


@wp.kernel
def branch_loss(par: wp.array(dtype=float), f_trunk: wp.array(dtype=float), length: wp.array(dtype=float),
                flow: wp.array(dtype=float), h_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    v = flow[i] / (0.25 * wp.pi * D_TRUNK * D_TRUNK)
    h = (f_trunk[0] * length[i] / D_TRUNK + par[1]) * v * v / (2.0 * 9.81)
    d = 10.0 * (h - h_obs[i])
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    f = wp.zeros(1, dtype=float, requires_grad=True)
    f_trunk = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(swamee_jain, dim=1, inputs=[par], outputs=[f])
        f_trunk.assign(f.numpy())  # expect: truncation
        wp.launch(branch_loss, dim=len(LEN), inputs=[par, f_trunk, wp.array(LEN, dtype=float), wp.array(FLOW, dtype=float),
                                                       wp.array(H_LOGGED, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [0.5, 2.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(50):
        l, g = evaluate(p)
        p = np.maximum(p - 0.01 * g, 1e-3)
    print(f"head-loss misfit {l:.4f}  roughness {p[0]:.3f} mm  K {p[1]:.2f}")
