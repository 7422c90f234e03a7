"""Implicit (backward Euler) heat equation with a heated segment: estimate
the diffusivity D and the heating power s from the final temperature. The
tridiagonal solve runs in one thread (Thomas algorithm) and its adjoint is
registered by hand with tape.record_func."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 48
STEPS = 10
DX = 1.0 / (N + 1)
DT = 0.03
PARAMS0 = [0.5, 3.0]
TRUE_PARAMS = [0.8, 5.0]
_x = (np.arange(N) + 1) * DX
HEATER = np.exp(-((_x - 0.35) / 0.1) ** 2).astype(np.float32)
U0 = (0.3 * np.sin(np.pi * _x)).astype(np.float32)


@wp.kernel
def heat_rhs(u: wp.array(dtype=float), heater: wp.array(dtype=float), prm: wp.array(dtype=float), dt: float,
             rhs: wp.array(dtype=float)):
    i = wp.tid()
    rhs[i] = u[i] + dt * prm[1] * heater[i]


@wp.kernel
def thomas(b: wp.array(dtype=float), prm: wp.array(dtype=float), coef: float, cp: wp.array(dtype=float),
           x: wp.array(dtype=float)):
    # solves (I + r L) x = b with L = tridiag(-1, 2, -1), r = D * coef
    n = b.shape[0]
    r = prm[0] * coef
    diag = 1.0 + 2.0 * r
    off = -r
    cp[0] = off / diag
    x[0] = b[0] / diag
    for i in range(1, n):
        m = diag - off * cp[i - 1]
        cp[i] = off / m
        x[i] = (b[i] - off * x[i - 1]) / m
    for k in range(n - 1):
        i = n - 2 - k
        x[i] = x[i] - cp[i] * x[i + 1]


@wp.kernel
def accumulate(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] += src[i]


@wp.kernel
def lap_pairing(lam: wp.array(dtype=float), u: wp.array(dtype=float), coef: float, out: wp.array(dtype=float)):
    # out[0] -= coef * lam . (L u)
    i = wp.tid()
    n = u.shape[0]
    lu = 2.0 * u[i]
    if i > 0:
        lu -= u[i - 1]
    if i < n - 1:
        lu -= u[i + 1]
    wp.atomic_add(out, 0, -coef * lam[i] * lu)


@wp.kernel
def final_misfit(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, 100.0 * d * d)


def implicit_solve(tape, rhs, prm):
    coef = DT / (DX * DX)
    u_new = wp.zeros(N, dtype=float, requires_grad=True)
    cp = wp.zeros(N, dtype=float)
    wp.launch(thomas, dim=1, inputs=[rhs, prm, coef, cp], outputs=[u_new], record_tape=False)

    def adjoint():
        lam = wp.zeros(N, dtype=float)
        wp.launch(thomas, dim=1, inputs=[u_new.grad, prm, coef, wp.zeros(N, dtype=float)], outputs=[lam])
        wp.launch(accumulate, dim=N, inputs=[lam], outputs=[rhs.grad])
        wp.launch(lap_pairing, dim=N, inputs=[lam, rhs, coef], outputs=[prm.grad])  # expect: custom_adjoint

    if tape is not None:
        tape.record_func(backward=adjoint, arrays=[rhs, u_new, prm])
    return u_new


def simulate(prm, tape=None):
    heater = wp.array(HEATER, dtype=float)
    u = wp.array(U0, dtype=float, requires_grad=True)
    for _ in range(STEPS):
        rhs = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(heat_rhs, dim=N, inputs=[u, heater, prm, DT], outputs=[rhs])
        u = implicit_solve(tape, rhs, prm)
    return u


OBS = simulate(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u = simulate(prm, tape)
        wp.launch(final_misfit, dim=N, inputs=[u, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.05 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it} loss {l:.4f} D {p[0]:.3f} s {p[1]:.3f}")
