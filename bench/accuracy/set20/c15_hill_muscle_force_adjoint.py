# correct: b15 (custom_adjoint): the hand-written Hill adjoint has the correct (negative) curvature partial on the eccentric branch too.
"""Hill-type muscle force-velocity relation from isokinetic dynamometer
trials (knee extensors): the normalised force is a hyperbola on the
shortening (concentric) side and a saturating curve on the lengthening
(eccentric) side. Maximal shortening velocity and curvature are fitted; the
relation is a @wp.func with a hand-written adjoint that is stable at v = 0.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

F_ISO = 820.0
N_TRIAL = 10
VEL = np.array([-3.0, -2.4, -1.8, -1.2, -0.6, 0.3, 0.6, 1.0, 1.5, 2.0])  # fibre lengths / s
F_OBS = np.array([318.0, 389.0, 472.0, 567.0, 681.0, 952.0, 1024.0, 1079.0, 1121.0, 1147.0])
PARAMS0 = np.array([8.5, 0.3])


@wp.func
def hill(v: float, vmax: float, a: float):
    if v < 0.0:
        u = -v / vmax
        return (1.0 - u) / (1.0 + u / a)
    else:
        w = v / vmax
        return 1.4 - 0.4 / (1.0 + w / a)


@wp.func_grad(hill)
def adj_hill(v: float, vmax: float, a: float, adj_ret: float):
    if v < 0.0:
        u = -v / vmax
        d = 1.0 + u / a
        wp.adjoint[vmax] += adj_ret * (1.0 + 1.0 / a) * u / (vmax * d * d)
        wp.adjoint[a] += adj_ret * (1.0 - u) * u / (a * a * d * d)
    else:
        w = v / vmax
        d = 1.0 + w / a
        wp.adjoint[vmax] += -adj_ret * 0.4 * w / (a * vmax * d * d)
        wp.adjoint[a] += -adj_ret * 0.4 * w / (a * a * d * d)


@wp.kernel
def dynamometer(vel: wp.array(dtype=float), p: wp.array(dtype=float), force: wp.array(dtype=float)):
    i = wp.tid()
    force[i] = F_ISO * hill(vel[i], p[0], p[1])


@wp.kernel
def force_loss(force: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (force[i] - obs[i]) / 50.0
    wp.atomic_add(loss, 0, r * r)


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    force = wp.zeros(N_TRIAL, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(dynamometer, dim=N_TRIAL, inputs=[wp.array(VEL, dtype=float), p], outputs=[force])
        wp.launch(force_loss, dim=N_TRIAL, inputs=[force, wp.array(F_OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


FD_EPS = np.array([1e-3, 1e-4])

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        val, g = evaluate(p)
        p -= np.array([0.2, 0.0005]) * g
    print(f"force misfit {val:.4f}  vmax {p[0]:.2f} L/s  curvature {p[1]:.3f}")
