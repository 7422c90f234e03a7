"""A heat-equilibrium solve by Jacobi relaxation, stopped after 12 sweeps on the tape.

The iterates still move at the last sweep, so the gradient is that of the
12-step map, about half the converged one here (2.33 vs 4.97 for the first
source term); FD agrees with the tape, so only the iterates tell.
"""

import numpy as np
import warp as wp

N = 32


@wp.kernel
def jacobi(u: wp.array(dtype=float), source: wp.array(dtype=float), u_next: wp.array(dtype=float)):
    i = wp.tid()
    left = float(0.0)
    right = float(0.0)
    if i > 0:
        left = u[i - 1]
    if i < N - 1:
        right = u[i + 1]
    u_next[i] = 0.5 * (left + right) * 0.9 + source[i]


@wp.kernel
def energy(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, u[i] * u[i])


class HeatSolver:
    def __init__(self, sweeps):
        self.sweeps = sweeps
        self.source = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
        self.fields = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(sweeps + 1)]

    def solve(self):
        for s in range(self.sweeps):  # note: TW208
            wp.launch(jacobi, dim=N, inputs=[self.fields[s], self.source], outputs=[self.fields[s + 1]])
        return self.fields[-1]


solver = HeatSolver(12)
cost = wp.zeros(1, dtype=float, requires_grad=True)
recorder = wp.Tape()
with recorder:
    u = solver.solve()
    wp.launch(energy, dim=N, inputs=[u], outputs=[cost])
recorder.backward(cost)
print(solver.source.grad.numpy()[:4])
