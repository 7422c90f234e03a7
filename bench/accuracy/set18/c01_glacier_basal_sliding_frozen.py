# correct: glacier sliding whose custom adjoint carries the negative delta partial on the frozen-bed branch as well.
"""Basal sliding law for eight outlet-glacier flowlines.

Sliding speed u_b = C * tau^3 on temperate beds; below the pressure-melting
point the bed is partly frozen and sliding is damped by exp(dT / delta).
Fits the sliding coefficient C and the thermal softness delta to
InSAR-derived basal speeds.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

TAU = np.array([0.82, 1.10, 0.95, 1.31, 0.70, 1.05, 1.22, 0.88], dtype=np.float32)  # 100 kPa
DT_BED = np.array([0.0, -1.2, 0.4, -0.6, -2.1, 0.0, -0.3, 1.1], dtype=np.float32)  # K from melting point
U_OBS = np.array([0.41, 0.52, 0.60, 1.05, 0.07, 0.73, 1.30, 0.49], dtype=np.float32)  # km/yr


@wp.func
def sliding(tau: float, c: float, dt: float, delta: float) -> float:
    t3 = tau * tau * tau
    if dt >= 0.0:
        return c * t3
    else:
        return c * t3 * wp.exp(dt / delta)


@wp.func_grad(sliding)
def adj_sliding(tau: float, c: float, dt: float, delta: float, adj_ret: float):
    t3 = tau * tau * tau
    if dt >= 0.0:
        wp.adjoint[c] += adj_ret * t3
        wp.adjoint[tau] += adj_ret * 3.0 * c * tau * tau
    else:
        damp = wp.exp(dt / delta)
        wp.adjoint[c] += adj_ret * t3 * damp
        wp.adjoint[delta] -= adj_ret * c * t3 * damp * (dt / delta) / delta
        wp.adjoint[tau] += adj_ret * 3.0 * c * tau * tau * damp


@wp.kernel
def misfit(tau: wp.array(dtype=float), dtb: wp.array(dtype=float), u_obs: wp.array(dtype=float),
           p: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    u = sliding(tau[i], p[0], dtb[i], p[1])
    r = u - u_obs[i]
    wp.atomic_add(loss, 0, r * r / 8.0)


PARAMS0 = [0.55, 1.4]
tau_d = wp.array(TAU, dtype=float)
dtb_d = wp.array(DT_BED, dtype=float)
uobs_d = wp.array(U_OBS, dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(misfit, dim=len(TAU), inputs=[tau_d, dtb_d, uobs_d, params], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p = p - 0.2 * g
    print(f"misfit {l:.5f}  C={p[0]:.3f}  delta={p[1]:.3f} K")
