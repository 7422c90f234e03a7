"""Anaesthesia depth: fit a propofol effect-site model (vec2 of EC-threshold and slope) to a depth-of-sedation index."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PAT, N_T = 8, 12
rng = np.random.default_rng(17)
DOSE = rng.uniform(1.0, 3.0, N_PAT).astype(np.float32)
TIMES = np.linspace(1.0, 12.0, N_T).astype(np.float32)


@wp.func
def sedation_drop(ce: float, k: wp.vec2):
    # below the threshold the index falls quadratically, above it the drop is linear
    if ce < k[0]:
        return k[1] * ce * ce / k[0]
    else:
        return k[1] * (2.0 * ce - k[0])


@wp.func_grad(sedation_drop)
def adj_sedation_drop(ce: float, k: wp.vec2, adj_ret: float):
    if ce < k[0]:
        wp.adjoint[k] += adj_ret * wp.vec2(-k[1] * ce * ce / (k[0] * k[0]), ce * ce / k[0])
    else:
        wp.adjoint[k] += adj_ret * wp.vec2(-k[1], 2.0 * ce + k[0])  # expect: custom_adjoint


@wp.kernel
def depth_index(k: wp.array(dtype=wp.vec2), dose: wp.array(dtype=float), times: wp.array(dtype=float),
                obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    ce = dose[i] * (1.0 - wp.exp(-0.3 * times[j]))
    bis = 95.0 - sedation_drop(ce, k[0])
    r = (bis - obs[i, j]) / 10.0
    wp.atomic_add(loss, 0, r * r)


def _bis(thr=1.4, slope=14.0):
    ce = DOSE[:, None] * (1 - np.exp(-0.3 * TIMES[None, :]))
    return (95.0 - np.where(ce < thr, slope * ce * ce / thr, slope * (2 * ce - thr))).astype(np.float32)


OBS = wp.array(_bis(), dtype=float)


def evaluate(p):
    k = wp.array([wp.vec2(float(p[0]), float(p[1]))], dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(depth_index, dim=(N_PAT, N_T), inputs=[k, wp.array(DOSE, dtype=float), wp.array(TIMES, dtype=float),
                                                        OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), k.grad.numpy()[0].astype(np.float64)


PARAMS0 = [1.1, 11.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= np.array([1e-4, 1e-2]) * g
    print("sedation fit loss %.4f params %s" % (l, p))
