"""Anti-reflection coating calibration: recover the MgF2-like layer index and
physical thickness from spectrophotometer reflectance of four coated lenses."""
import numpy as np
import warp as wp

from _coating import coating_reflectance

wp.config.quiet = True
wp.set_device("cpu")

N_SUB = np.array([1.50, 1.52, 1.62, 1.74], dtype=np.float32)   # crown, BK7, flint, high-index
LAM = np.linspace(420.0, 700.0, 36).astype(np.float32)       # nm


@wp.kernel
def spectrum(p: wp.array(dtype=float), n_sub: wp.array(dtype=float), lam: wp.array(dtype=float),
             refl: wp.array2d(dtype=float)):
    j, k = wp.tid()
    refl[j, k] = 100.0 * coating_reflectance(p[0], 1000.0 * p[1], n_sub[j], lam[k])


N_SUB_W = wp.array(N_SUB, dtype=float)
LAM_W = wp.array(LAM, dtype=float)


def reflectance(p, requires_grad=False):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=requires_grad)
    refl = wp.zeros((len(N_SUB), len(LAM)), dtype=float, requires_grad=requires_grad)
    return p_w, refl


_p, R_OBS = reflectance([1.385, 0.101])
wp.launch(spectrum, dim=R_OBS.shape, inputs=[_p, N_SUB_W, LAM_W], outputs=[R_OBS])
R_OBS_NP = R_OBS.numpy().astype(np.float64) + 0.02 * np.sin(np.arange(R_OBS.size)).reshape(R_OBS.shape)
R_OBS_W = wp.array(R_OBS_NP.astype(np.float32), dtype=float)


@wp.kernel
def sq_misfit(refl: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    j, k = wp.tid()
    r = refl[j, k] - obs[j, k]
    wp.atomic_add(loss, 0, r * r)


PARAMS0 = np.array([1.40, 0.096])
FD_EPS = np.array([1e-3, 5e-5])


def evaluate(p):
    p_w, refl = reflectance(p, True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(spectrum, dim=refl.shape, inputs=[p_w, N_SUB_W, LAM_W], outputs=[refl])
        wp.launch(sq_misfit, dim=refl.shape, inputs=[refl, R_OBS_W], outputs=[loss])
    tape.backward(loss)
    r = refl.numpy().astype(np.float64) - R_OBS_NP
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"coating misfit {L:.5f} (%^2)  d/d[n, thickness_um] = {g}")
