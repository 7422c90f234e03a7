# correct: NumPy linear solve wrapped with Tape.record_func whose backward applies the transposed inverse
"""Backward-Euler advection-diffusion on a 1-D periodic grid; the linear solve runs in NumPy and its
adjoint is registered on the tape with record_func. Gradient of a downstream profile error w.r.t.
the source strengths."""

import numpy as np
import warp as wp

M = 8
DT = 0.1
VELOCITY = 1.2
NU = 0.01
STEPS = 2
PARAMS0 = np.array([0.5, -0.3, 0.8, 0.1, -0.6, 0.4, 0.2, -0.1])
U0 = np.exp(-0.5 * ((np.arange(M) - 2.0) / 1.2) ** 2).astype(np.float32)
TARGET = np.roll(U0, 3) * 0.9


def system_matrix():
    dx = 1.0 / M
    A = np.eye(M)
    for i in range(M):
        left = (i - 1) % M
        right = (i + 1) % M
        A[i, i] += DT * (VELOCITY / dx + 2.0 * NU / dx**2)
        A[i, left] -= DT * (VELOCITY / dx + NU / dx**2)
        A[i, right] -= DT * NU / dx**2
    return A


@wp.kernel
def add_sources(u: wp.array(dtype=float), strength: wp.array(dtype=float), dt: float, rhs: wp.array(dtype=float)):
    i = wp.tid()
    rhs[i] = u[i] + dt * wp.tanh(strength[i]) * (1.0 + u[i] * u[i])


@wp.kernel
def profile_error(u: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


class ImplicitSolve:
    """u = A^{-1} rhs, differentiable through Tape.record_func."""

    def __init__(self, A):
        self.A_inv = np.linalg.inv(A)
        self.A_inv_T = self.A_inv.T.copy()

    def __call__(self, tape, rhs, u):
        u.assign((self.A_inv @ rhs.numpy().astype(np.float64)).astype(np.float32))

        def backward():
            lam = self.A_inv_T @ u.grad.numpy().astype(np.float64)
            rhs.grad.assign(rhs.grad.numpy() + lam.astype(np.float32))

        tape.record_func(backward, arrays=[rhs, u])


def evaluate(p):
    solve = ImplicitSolve(system_matrix())
    strength = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    u = wp.array(U0, dtype=float, requires_grad=True)
    target = wp.array(TARGET.astype(np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            rhs = wp.zeros(M, dtype=float, requires_grad=True)
            wp.launch(add_sources, dim=M, inputs=[u, strength, DT], outputs=[rhs])
            u = wp.zeros(M, dtype=float, requires_grad=True)
            solve(tape, rhs, u)
        wp.launch(profile_error, dim=M, inputs=[u, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), strength.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"profile error {loss:.5f}  d/dsource {np.round(grad, 4)}")
