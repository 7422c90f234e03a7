"""Soil water retention (Brooks-Corey, air-entry plateau): fit the pore-size
index and the air-entry suction to pressure-plate measurements of a loam."""
import numpy as np
import warp as wp

wp.config.quiet = True

THETA_S = wp.constant(0.43)
THETA_R = wp.constant(0.05)


@wp.func
def water_content(h: float, lam: float, hb: float):
    if h <= hb:
        return THETA_S
    else:
        return THETA_R + (THETA_S - THETA_R) * wp.pow(hb / h, lam)


@wp.func_grad(water_content)
def adj_water_content(h: float, lam: float, hb: float, adj_ret: float):
    if h <= hb:
        return
    else:
        se = wp.pow(hb / h, lam)
        amp = THETA_S - THETA_R
        wp.adjoint[h] += -adj_ret * amp * lam * se / h
        wp.adjoint[hb] += adj_ret * amp * lam * se / hb
        wp.adjoint[lam] += adj_ret * amp * se  # expect: custom_adjoint


@wp.kernel
def retention_loss(p: wp.array(dtype=wp.vec2), suction: wp.array(dtype=float), obs: wp.array(dtype=float),
                   loss: wp.array(dtype=float)):
    i = wp.tid()
    q = p[0]
    theta = water_content(suction[i], q[0], q[1] * 10.0)
    r = (theta - obs[i]) * 10.0
    wp.atomic_add(loss, 0, r * r)


SUCTION = np.geomspace(2.0, 1500.0, 18).astype(np.float32)  # kPa


def _obs():
    lam, hb = 0.32, 25.0
    th = np.where(SUCTION <= hb, 0.43, 0.05 + 0.38 * (hb / SUCTION) ** lam)
    return th.astype(np.float32)


OBS = _obs()
PARAMS0 = np.array([0.4, 2.0])


def evaluate(p):
    params = wp.array([wp.vec2(float(p[0]), float(p[1]))], dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(retention_loss, dim=len(SUCTION),
                  inputs=[params, wp.array(SUCTION, dtype=float), wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.array(params.grad.numpy()[0], dtype=np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    m = np.zeros(2)
    for it in range(40):
        loss, g = evaluate(p)
        m = 0.8 * m + g
        p -= 0.002 * m
    print(f"loss {loss:.5f}  lambda={p[0]:.3f}  h_b={10 * p[1]:.2f} kPa")
