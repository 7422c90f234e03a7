"""Dental enamel lesion remineralisation under fluoride varnish: mineral density recovery over a 2-D grid of lesions x weeks."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LES, N_WEEK = 8, 6
rng = np.random.default_rng(30)
DEPTH0 = rng.uniform(0.2, 0.5, N_LES).astype(np.float32)          # initial mineral loss fraction
FLUOR = rng.uniform(0.5, 1.5, N_LES).astype(np.float32)           # varnish ppm x 1e-4
WEEKS = np.arange(1, N_WEEK + 1, dtype=np.float32)
OBS = (DEPTH0[:, None] * np.exp(-0.1 * WEEKS[None, :]) * (1.0 - 0.2 * FLUOR[:, None])).astype(np.float32)
PARAMS0 = [0.08, 0.3]  # recovery rate per week, fluoride boost


@wp.kernel
def lesion(p: wp.array(dtype=float), depth0: wp.array(dtype=float), fluor: wp.array(dtype=float),
           weeks: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i, w = wp.tid()
    out[i, w] = depth0[i] * wp.exp(-p[0] * weeks[w])
    out[i, w] *= 1.0 - p[1] * fluor[i]  # expect: inplace_op


@wp.kernel
def misfit(pred: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, w = wp.tid()
    e = (pred[i, w] - obs[i, w]) * 10.0
    wp.atomic_add(loss, 0, e * e)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pred = wp.zeros((N_LES, N_WEEK), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lesion, dim=(N_LES, N_WEEK), inputs=[params, wp.array(DEPTH0, dtype=float), wp.array(FLUOR, dtype=float),
                                                      wp.array(WEEKS, dtype=float)], outputs=[pred])
        wp.launch(misfit, dim=(N_LES, N_WEEK), inputs=[pred, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.005 * g / (1.0 + np.linalg.norm(g))
    print("enamel loss", loss, "params", p)
