"""Consecutive first-order reactions A -> B -> C in a batch reactor run at four
temperatures: fit Arrhenius pre-factor and activation energies to HPLC
concentrations of the intermediate B with log-normal (multiplicative) errors."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

R_GAS = 8.314e-3     # kJ/mol/K
T_REF = 350.0
TEMPS = np.array([330.0, 345.0, 360.0, 375.0], dtype=np.float32)
TIMES = np.linspace(5.0, 240.0, 20).astype(np.float32)   # min


@wp.kernel
def intermediate_conc(p: wp.array(dtype=float), temps: wp.array(dtype=float), times: wp.array(dtype=float),
                      cb: wp.array2d(dtype=float)):
    j, k = wp.tid()
    arr = 1.0 / temps[j] - 1.0 / 350.0
    k1 = wp.exp(p[0] - p[1] / 8.314e-3 * arr)
    k2 = wp.exp(p[2] - p[3] / 8.314e-3 * arr)
    t = times[k]
    cb[j, k] = k1 / (k2 - k1) * (wp.exp(-k1 * t) - wp.exp(-k2 * t))


_p_true = np.array([np.log(0.02), 65.0, np.log(0.006), 80.0], dtype=np.float32)
_tmp = wp.zeros((len(TEMPS), len(TIMES)), dtype=float)
wp.launch(intermediate_conc, dim=_tmp.shape,
          inputs=[wp.array(_p_true, dtype=float), wp.array(TEMPS, dtype=float), wp.array(TIMES, dtype=float)],
          outputs=[_tmp])
CB_OBS = _tmp.numpy().astype(np.float64) * np.exp(0.05 * np.sin(np.arange(_tmp.size) * 1.7)).reshape(_tmp.shape)
TEMPS_W = wp.array(TEMPS, dtype=float)
TIMES_W = wp.array(TIMES, dtype=float)

PARAMS0 = np.array([np.log(0.025), 60.0, np.log(0.005), 85.0])
FD_EPS = np.array([1e-3, 0.02, 1e-3, 0.02])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    cb = wp.zeros((len(TEMPS), len(TIMES)), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(intermediate_conc, dim=cb.shape, inputs=[p_w, TEMPS_W, TIMES_W], outputs=[cb])
    cb_h = cb.numpy().astype(np.float64)
    lr = np.log(cb_h) - np.log(CB_OBS)
    loss = 0.5 * float(np.sum(lr * lr))
    tape.backward(grads={cb: wp.array(lr.astype(np.float32), dtype=float)})  # expect: seeding
    return loss, p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"log-normal misfit {L:.5f}; grad [lnA1, Ea1, lnA2, Ea2] = {g}")
