# correct: the cooling term reads the previous-step temperature array, never the element the kernel has just written
"""Oil quench of steel bars: fit the film coefficient and boiling-regime
exponent of a lumped cooling law to thermocouple readings (one step per launch)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_BAR = 5
N_STEP = 40
DT = 0.5
T_OIL = 60.0


@wp.kernel
def quench_step(p: wp.array(dtype=float), bio: wp.array(dtype=float), t_prev: wp.array(dtype=float),
                t_new: wp.array(dtype=float)):
    b = wp.tid()
    t_new[b] = t_prev[b]
    t_new[b] += -DT * p[0] * bio[b] * wp.pow((t_prev[b] - T_OIL) / 100.0, p[1])


@wp.kernel
def tc_misfit(t: wp.array(dtype=float), obs: wp.array2d(dtype=float), k: int, loss: wp.array(dtype=float)):
    b = wp.tid()
    r = (t[b] - obs[b, k]) / 10.0
    wp.atomic_add(loss, 0, r * r)


BIO = wp.array(np.array([1.0, 0.8, 1.2, 0.7, 0.95], dtype=np.float32), dtype=float)
T_START = np.array([850.0, 840.0, 860.0, 830.0, 845.0], dtype=np.float32)


def quench(p_w, requires_grad, loss=None, obs=None):
    temps = [wp.array(T_START, dtype=float, requires_grad=requires_grad)]
    for k in range(N_STEP):
        temps.append(wp.zeros(N_BAR, dtype=float, requires_grad=requires_grad))
        wp.launch(quench_step, dim=N_BAR, inputs=[p_w, BIO, temps[k]], outputs=[temps[k + 1]])
        if loss is not None:
            wp.launch(tc_misfit, dim=N_BAR, inputs=[temps[k + 1], obs, k], outputs=[loss])
    return np.stack([t.numpy() for t in temps[1:]], axis=1).astype(np.float64)


OBS_NP = quench(wp.array([6.0, 1.3], dtype=float), False) + 2.0 * np.sin(np.arange(N_BAR * N_STEP)).reshape(N_BAR, N_STEP)
OBS = wp.array(OBS_NP.astype(np.float32), dtype=float)
PARAMS0 = np.array([5.0, 1.2])
FD_EPS = 1e-3


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        traj = quench(p_w, True, loss, OBS)
    tape.backward(loss)
    r = (traj - OBS_NP) / 10.0
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"thermocouple misfit {L:.4f}; grad [h, n] = {g}")
