# correct: the rinse-bath concentrations live in their own 2-D array instead of being assigned into the bath array.
"""Textile dyeing: fit the dye-uptake isotherm of a cotton batch from a dye bath and a rinse bath (2-D fabric x sample grid)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_FAB, N_SMP = 6, 10
rng = np.random.default_rng(3)
BATH = rng.uniform(0.5, 4.0, (N_FAB, N_SMP)).astype(np.float32)
RINSE = rng.uniform(0.05, 0.6, (N_FAB, N_SMP)).astype(np.float32)


@wp.kernel
def langmuir_uptake(p: wp.array(dtype=float), conc: wp.array2d(dtype=float), q: wp.array2d(dtype=float)):
    f, s = wp.tid()
    kf = p[0] * (1.0 + 0.1 * float(f))
    q[f, s] = p[1] * kf * conc[f, s] / (1.0 + kf * conc[f, s])


@wp.kernel
def misfit(q: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    f, s = wp.tid()
    r = q[f, s] - obs[f, s]
    wp.atomic_add(loss, 0, r * r)


def _q(c, k=0.9, qmax=12.0):
    kf = k * (1 + 0.1 * np.arange(N_FAB))[:, None]
    return (qmax * kf * c / (1 + kf * c)).astype(np.float32)


OBS_BATH = wp.array(_q(BATH), dtype=float)
OBS_RINSE = wp.array(_q(RINSE) * 0.97, dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    conc = wp.array(BATH, dtype=float)
    rinse = wp.array(RINSE, dtype=float)
    q_bath = wp.zeros((N_FAB, N_SMP), dtype=float, requires_grad=True)
    q_rinse = wp.zeros((N_FAB, N_SMP), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(langmuir_uptake, dim=(N_FAB, N_SMP), inputs=[params, conc], outputs=[q_bath])
        wp.launch(misfit, dim=(N_FAB, N_SMP), inputs=[q_bath, OBS_BATH], outputs=[loss])
        wp.launch(langmuir_uptake, dim=(N_FAB, N_SMP), inputs=[params, rinse], outputs=[q_rinse])
        wp.launch(misfit, dim=(N_FAB, N_SMP), inputs=[q_rinse, OBS_RINSE], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.6, 10.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= np.array([1e-4, 2e-3]) * g
    print("dye uptake loss %.4f params %s" % (l, p))
