"""A diagonal implicit step solved by a kernel kept off the tape (record_tape=False), meant to get a
hand-written adjoint with tape.record_func, which was never registered: backward() stops at the
solve and the source gets no gradient (the look-alike registers it)."""

import numpy as np
import warp as wp

N = 8
STEPS = 3


@wp.kernel
def build_rhs(u: wp.array(dtype=float), s: wp.array(dtype=float), dt: float, rhs: wp.array(dtype=float)):
    i = wp.tid()
    rhs[i] = u[i] + dt * s[i] * s[i]


@wp.kernel
def solve_diag(rhs: wp.array(dtype=float), d: wp.array(dtype=float), x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = rhs[i] / d[i]


@wp.kernel
def add_into(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] += src[i]


@wp.kernel
def energy(u: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, u[i] * u[i])


def implicit_step(tape, u, s, d):
    rhs = wp.zeros(N, dtype=float, requires_grad=True)
    u_next = wp.zeros(N, dtype=float, requires_grad=True)
    wp.launch(build_rhs, dim=N, inputs=[u, s, 0.1], outputs=[rhs])
    wp.launch(solve_diag, dim=N, inputs=[rhs, d], outputs=[u_next], record_tape=False)  # expect: TW207

    def adjoint():
        lam = wp.zeros(N, dtype=float)
        wp.launch(solve_diag, dim=N, inputs=[u_next.grad, d], outputs=[lam])
        wp.launch(add_into, dim=N, inputs=[lam], outputs=[rhs.grad])

    return u_next


s = wp.array(np.linspace(0.5, 1.5, N, dtype=np.float32), requires_grad=True)
d = wp.array(np.full(N, 1.3, dtype=np.float32))
u = wp.zeros(N, dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for _ in range(STEPS):
        u = implicit_step(tape, u, s, d)
    wp.launch(energy, dim=N, inputs=[u], outputs=[e])
tape.backward(e)
print("d e / d s", s.grad.numpy())
