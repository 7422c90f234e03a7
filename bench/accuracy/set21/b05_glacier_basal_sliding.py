"""Glacier flow-line: basal sliding with a regularised Coulomb law (power law
below the till yield stress, plastic above), fitted to GPS surface speeds."""
import numpy as np
import warp as wp

wp.config.quiet = True


@wp.struct
class Till:
    c_slide: float
    tau_yield: float


@wp.func
def sliding_speed(tau: float, c: float, ty: float):
    if tau < ty:
        return c * tau * tau * tau
    else:
        return c * ty * ty * ty + 4.0 * (tau - ty)


@wp.func_grad(sliding_speed)
def adj_sliding_speed(tau: float, c: float, ty: float, adj_ret: float):
    if tau < ty:
        wp.adjoint[tau] += adj_ret * 3.0 * c * tau * tau
        wp.adjoint[c] += adj_ret * tau * tau * tau
    else:
        wp.adjoint[tau] += adj_ret * 4.0
        wp.adjoint[c] += adj_ret * ty * ty * ty
        wp.adjoint[ty] += adj_ret * 3.0 * c * ty * ty  # expect: custom_adjoint


@wp.kernel
def surface_speed(p: wp.array(dtype=float), thick: wp.array(dtype=float), slope: wp.array(dtype=float),
                  u: wp.array(dtype=float)):
    i = wp.tid()
    till = Till()
    till.c_slide = p[0]
    till.tau_yield = p[1]
    tau = 0.917 * 9.81 * thick[i] * slope[i] * 0.001   # driving stress, scaled units
    u_def = 0.02 * tau * tau * tau * thick[i] * 0.01
    u[i] = u_def + sliding_speed(tau, till.c_slide, till.tau_yield)


@wp.kernel
def log_misfit(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.log(u[i]) - wp.log(obs[i])
    wp.atomic_add(loss, 0, r * r)


N = 20
THICK = np.linspace(120.0, 420.0, N).astype(np.float32)
SLOPE = (0.6 + 0.4 * np.sin(np.linspace(0, 3, N))).astype(np.float32)


def speeds(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float)
    u = wp.zeros(N, dtype=float)
    wp.launch(surface_speed, dim=N, inputs=[params, wp.array(THICK, dtype=float), wp.array(SLOPE, dtype=float)], outputs=[u])
    return u


OBS = speeds([0.35, 2.1]).numpy().copy()
PARAMS0 = np.array([0.3, 2.4])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    u = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(surface_speed, dim=N, inputs=[params, wp.array(THICK, dtype=float), wp.array(SLOPE, dtype=float)], outputs=[u])
        wp.launch(log_misfit, dim=N, inputs=[u, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.01 * g
    print(f"loss {loss:.5f}  C={p[0]:.3f}  tau_y={p[1]:.3f}")
