"""Deformable mirror with Gaussian influence functions over a 1-D pupil cut and
the extended-Marechal Strehl ratio of the residual wavefront."""
import numpy as np
import warp as wp

N_ACT = 8
N_PUP = 96
X_PUP = np.linspace(-1.0, 1.0, N_PUP).astype(np.float32)
X_ACT = np.linspace(-0.9, 0.9, N_ACT).astype(np.float32)
WAVEFRONT = (0.12 * (2 * X_PUP ** 2 - 1) + 0.05 * X_PUP ** 3 - 0.03 * np.sin(5 * X_PUP)).astype(np.float32)  # waves


@wp.kernel
def mirror_residual(cmd: wp.array(dtype=float), xa: wp.array(dtype=float), xp: wp.array(dtype=float),
                    w: wp.array(dtype=float), res: wp.array(dtype=float)):
    k, a = wp.tid()
    u = (xp[k] - xa[a]) / 0.25
    # reflection doubles the surface; the aberration enters once (added by actuator 0's thread)
    v = 2.0 * cmd[a] * wp.exp(-u * u)
    if a == 0:
        v += w[k]
    wp.atomic_add(res, k, v)


@wp.kernel
def strehl_loss(res: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    ph = 2.0 * wp.pi * res[k]
    wp.atomic_add(loss, 0, ph * ph / float(res.shape[0]))


@wp.kernel
def one_minus_strehl(var: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = 1.0 - wp.exp(-var[0])


def strehl_deficit(cmd):
    res = wp.zeros(N_PUP, dtype=float, requires_grad=True)
    var = wp.zeros(1, dtype=float, requires_grad=True)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(mirror_residual, dim=(N_PUP, N_ACT), inputs=[cmd, wp.array(X_ACT, dtype=float), wp.array(X_PUP, dtype=float),
                                                            wp.array(WAVEFRONT, dtype=float)], outputs=[res])
    wp.launch(strehl_loss, dim=N_PUP, inputs=[res], outputs=[var])
    wp.launch(one_minus_strehl, dim=1, inputs=[var], outputs=[out])
    return out
