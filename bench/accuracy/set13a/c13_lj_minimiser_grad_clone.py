# correct: the minimiser calls tape.zero() right after backward and before it uses the gradient, but it has taken a wp.clone of x.grad first and steps with the clone.
"""Energy minimisation of an 8-atom LJ cluster by steepest descent with a backtracking
step size, using Warp autodiff for the forces (F = -dE/dx). The minimiser keeps one
tape and reads the position gradient each iteration.
"""
import numpy as np
import warp as wp

from _lj import cube_cluster, lj_energy


@wp.kernel
def cluster_energy(x: wp.array(dtype=wp.vec3), eps: float, sigma: float, e: wp.array(dtype=float)):
    i, j = wp.tid()
    if j > i:
        d = x[i] - x[j]
        wp.atomic_add(e, 0, lj_energy(wp.dot(d, d), eps, sigma))


class SteepestDescent:
    def __init__(self, x0, step=0.01):
        self.x = wp.array(x0, dtype=wp.vec3, requires_grad=True)
        self.n = x0.shape[0]
        self.step = step
        self.tape = wp.Tape()
        self.consumed = []  # (positions, gradient used) per iteration

    def energy(self, x_np=None):
        x = self.x if x_np is None else wp.array(x_np, dtype=wp.vec3)
        e = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(cluster_energy, dim=(self.n, self.n), inputs=[x, 1.0, 1.0], outputs=[e])
        return e

    def iterate(self):
        self.tape.reset()
        with self.tape:
            e = self.energy()
        self.tape.backward(e)
        g_dev = wp.clone(self.x.grad)
        self.tape.zero()
        g = g_dev.numpy()
        x_np = self.x.numpy()
        self.consumed.append((x_np.copy(), g))
        e0 = float(e.numpy()[0])
        while self.step > 1e-6:
            trial = x_np - self.step * g
            if float(self.energy(trial).numpy()[0]) <= e0:
                self.x.assign(trial)
                self.step *= 1.2
                break
            self.step *= 0.5
        return e0


X0 = cube_cluster(2, 1.2, 0.05, seed=23)


def verify(n_iter=4, eps=1e-3):
    """Gradient the minimiser used at its last iteration vs central FD of the energy there."""
    sd = SteepestDescent(X0)
    for _ in range(n_iter):
        sd.iterate()
    x, g = sd.consumed[-1]
    fd = np.zeros(x.size)
    for k in range(x.size):
        xp, xm = x.copy().ravel(), x.copy().ravel()
        xp[k] += eps
        xm[k] -= eps
        fd[k] = (float(sd.energy(xp.reshape(x.shape)).numpy()[0]) - float(sd.energy(xm.reshape(x.shape)).numpy()[0])) / (2 * eps)
    return g.ravel(), fd


if __name__ == "__main__":
    sd = SteepestDescent(X0)
    for it in range(8):
        e = sd.iterate()
        print(f"iter {it}: E = {e:.5f}, |F|max = {np.abs(sd.consumed[-1][1]).max():.4f}, step {sd.step:.4f}")
