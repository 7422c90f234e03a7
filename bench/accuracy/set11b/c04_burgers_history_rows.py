# correct: one kernel reads and writes the same 2-D array, but it reads row t and writes row t + 1, so no value an adjoint needs is overwritten.
"""Viscous Burgers equation u_t + a u u_x = nu u_xx (periodic): estimate the
viscosity and the nonlinearity scale from three time slices of the velocity
field. The whole space-time solution is kept in one 2-D array."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 48
STEPS = 45
DX = 2.0 * np.pi / N
DT = 0.01
SLICES = [15, 30, 45]
PARAMS0 = [0.15, 0.8]
TRUE_PARAMS = [0.1, 1.0]


@wp.kernel
def burgers_step(U: wp.array2d(dtype=float), t: int, prm: wp.array(dtype=float), dx: float, dt: float):
    i = wp.tid()
    n = U.shape[1]
    u = U[t, i]
    ul = U[t, (i + n - 1) % n]
    ur = U[t, (i + 1) % n]
    adv = prm[1] * u * (ur - ul) / (2.0 * dx)
    diff = prm[0] * (ur - 2.0 * u + ul) / (dx * dx)
    U[t + 1, i] = u + dt * (diff - adv)


@wp.kernel
def slice_loss(U: wp.array2d(dtype=float), t: int, obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = U[t, i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


def solve(prm, requires_grad=False):
    x = np.arange(N) * DX
    U0 = np.zeros((STEPS + 1, N), dtype=np.float32)
    U0[0] = np.sin(x) + 0.5 * np.sin(2.0 * x + 0.3)
    U = wp.array(U0, dtype=float, requires_grad=requires_grad)
    for t in range(STEPS):
        wp.launch(burgers_step, dim=N, inputs=[U, t, prm, DX, DT])
    return U


OBS = solve(wp.array(TRUE_PARAMS, dtype=float)).numpy()[SLICES].copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        U = solve(prm, requires_grad=True)
        for k, t in enumerate(SLICES):
            wp.launch(slice_loss, dim=N, inputs=[U, t, wp.array(OBS[k], dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.02 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it} loss {l:.5f} nu {p[0]:.4f} a {p[1]:.4f}")
