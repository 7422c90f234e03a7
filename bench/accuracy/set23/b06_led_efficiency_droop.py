"""LED luminous-efficacy droop over a 2-D grid of chips x drive currents, vec2 (peak efficacy, droop) parameter with a hand adjoint."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CHIP, N_CUR = 5, 10
I_PEAK = wp.constant(0.35)
rng = np.random.default_rng(16)
CURRENT = np.tile(np.linspace(0.05, 1.0, N_CUR, dtype=np.float32), (N_CHIP, 1))
TEMP_K = rng.uniform(0.9, 1.1, (N_CHIP, 1)).astype(np.float32) * np.ones((1, N_CUR), np.float32)
_eff = np.where(CURRENT < 0.35, 160.0 * CURRENT / 0.35, 160.0 / (1.0 + 0.8 * (CURRENT - 0.35)))
OBS = (_eff * TEMP_K).astype(np.float32)
PARAMS0 = [150.0, 0.6]


@wp.func
def efficacy(i: float, k: wp.vec2):
    if i < I_PEAK:
        return k[0] * i / I_PEAK
    return k[0] / (1.0 + k[1] * (i - I_PEAK))


@wp.func_grad(efficacy)
def adj_efficacy(i: float, k: wp.vec2, adj_ret: float):
    if i < I_PEAK:
        wp.adjoint[k] += adj_ret * wp.vec2(i / I_PEAK, 0.0)
    else:
        den = 1.0 + k[1] * (i - I_PEAK)
        wp.adjoint[k] += adj_ret * wp.vec2(1.0 / den, -k[0] * (i - I_PEAK) / den)  # expect: custom_adjoint


@wp.kernel
def lab(p: wp.array(dtype=wp.vec2), cur: wp.array2d(dtype=float), tk: wp.array2d(dtype=float),
        obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    c, j = wp.tid()
    e = (efficacy(cur[c, j], p[0]) * tk[c, j] - obs[c, j]) / 10.0
    wp.atomic_add(loss, 0, e * e)


def evaluate(p):
    params = wp.array([wp.vec2(float(p[0]), float(p[1]))], dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lab, dim=(N_CHIP, N_CUR), inputs=[params, wp.array(CURRENT, dtype=float), wp.array(TEMP_K, dtype=float),
                                                    wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy()[0].copy()


FD_EPS = [1e-2, 1e-3]

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.05 * g / (1.0 + np.linalg.norm(g))
    print("LED droop loss", loss, "params", p)
