"""Identify a temperature-dependent conductivity k(u) = k0 (1 + beta u^2) from
a measured final temperature profile of a 1-D rod (explicit finite volumes)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 32
STEPS = 50
DX = wp.constant(1.0 / N)
DT = wp.constant(2.0e-4)

PARAMS0 = [0.8, 1.5]
TRUE_PARAMS = [1.0, 2.5]


@wp.func
def conductivity(u: float, kp: wp.array(dtype=float)):
    return kp[0] * (1.0 + kp[1] * u * u)


@wp.kernel
def diffuse(u: wp.array(dtype=float), kp: wp.array(dtype=float), u_out: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, n - 1)
    kl = conductivity(0.5 * (u[i] + u[il]), kp)
    kr = conductivity(0.5 * (u[i] + u[ir]), kp)
    u_out[i] = u[i] + DT / (DX * DX) * (kr * (u[ir] - u[i]) - kl * (u[i] - u[il]))


@wp.kernel
def misfit(u: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def initial_profile():
    x = (np.arange(N) + 0.5) / N
    return (np.exp(-((x - 0.4) / 0.12) ** 2) + 0.5 * np.exp(-((x - 0.75) / 0.08) ** 2)).astype(np.float32)


def simulate(kp, u0):
    a = wp.clone(u0)
    b = wp.empty_like(u0)
    for _ in range(STEPS):
        wp.launch(diffuse, dim=N, inputs=[a, kp], outputs=[b])
        a, b = b, a  # expect: overwrite
    return a


def make_target():
    kp = wp.array(TRUE_PARAMS, dtype=float)
    u0 = wp.array(initial_profile(), dtype=float)
    return simulate(kp, u0).numpy().copy()


TARGET = make_target()


def evaluate(p):
    kp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    u0 = wp.array(initial_profile(), dtype=float, requires_grad=True)
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        uT = simulate(kp, u0)
        wp.launch(misfit, dim=N, inputs=[uT, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), kp.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        l, g = evaluate(p)
        p -= 0.5 * g / (np.linalg.norm(g) + 1e-12) * min(1.0, 10.0 * l)
        if it % 5 == 0:
            print(f"iter {it:2d} loss {l:.3e} k0 {p[0]:.3f} beta {p[1]:.3f}")
