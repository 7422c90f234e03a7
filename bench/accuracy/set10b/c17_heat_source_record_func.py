# correct: the implicit solver is launched with record_tape=False inside the tape, but its adjoint is registered with tape.record_func, so the gradient still flows
"""Inverse heat-source problem on a 1-D rod, implicit (backward Euler) time
stepping.  Each step solves (I + dt*kappa*L) u_next = u + dt*s with the
Thomas algorithm in a single-thread kernel; that solve is kept off the tape
and given a hand-written adjoint (the matrix is symmetric, so the adjoint is
another solve with the same matrix).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

NX = 24
STEPS = 8
DT = 0.05
KAPPA = 0.8
H = 1.0 / (NX + 1)
R = DT * KAPPA / (H * H)


@wp.kernel
def thomas_solve(rhs: wp.array(dtype=float), scratch: wp.array(dtype=float), x: wp.array(dtype=float)):
    # tridiagonal system: diag 1 + 2R, off-diagonals -R (Dirichlet ends)
    a = -R
    b = 1.0 + 2.0 * R
    cp = float(0.0)
    dp = float(0.0)
    for i in range(NX):
        denom = b - a * cp
        cp = -R / denom
        dp = (rhs[i] - a * dp) / denom
        scratch[i] = cp
        x[i] = dp
    for k in range(NX - 1):
        i = NX - 2 - k
        x[i] = x[i] - scratch[i] * x[i + 1]


@wp.kernel
def build_rhs(u: wp.array(dtype=float), s: wp.array(dtype=float), rhs: wp.array(dtype=float)):
    i = wp.tid()
    rhs[i] = u[i] + DT * s[i]


@wp.kernel
def misfit(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def accumulate(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] += src[i]


def implicit_step(tape, u, s):
    rhs = wp.zeros(NX, dtype=float, requires_grad=True)
    u_next = wp.zeros(NX, dtype=float, requires_grad=True)
    scratch = wp.zeros(NX, dtype=float)
    wp.launch(build_rhs, dim=NX, inputs=[u, s], outputs=[rhs])
    wp.launch(thomas_solve, dim=1, inputs=[rhs, scratch], outputs=[u_next], record_tape=False)

    def adjoint_solve():
        lam = wp.zeros(NX, dtype=float)
        wp.launch(thomas_solve, dim=1, inputs=[u_next.grad, wp.zeros(NX, dtype=float)], outputs=[lam])
        wp.launch(accumulate, dim=NX, inputs=[lam], outputs=[rhs.grad])

    if tape is not None:
        tape.record_func(backward=adjoint_solve, arrays=[rhs, u_next])
    return u_next


def simulate(s, tape=None):
    u = wp.zeros(NX, dtype=float, requires_grad=True)
    for _ in range(STEPS):
        u = implicit_step(tape, u, s)
    return u


XS = np.linspace(H, 1 - H, NX)
S_TRUE = (4.0 * np.exp(-((XS - 0.35) / 0.08) ** 2) + 2.0 * np.exp(-((XS - 0.7) / 0.1) ** 2)).astype(np.float32)
OBS = wp.array(simulate(wp.array(S_TRUE, dtype=float)).numpy(), dtype=float)
PARAMS0 = np.full(NX, 1.0)
FD_EPS = 0.05  # the misfit is quadratic in s


def evaluate(p):
    s = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u = simulate(s, tape)
        wp.launch(misfit, dim=NX, inputs=[u, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), s.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        p -= 20.0 * g
        if it % 25 == 0:
            print(f"iter {it:3d} misfit {loss:.3e}")
