# correct: one tape object serves every SGD iteration, but tape.reset() at the top of each iteration drops the old launches and zeroes the parameter gradient before recording.
"""Coarse-graining by force matching: a harmonic-bond + WCA model (k_b, b0) is fitted
to the forces of Kremer-Grest (FENE + WCA) reference snapshots of a 16-bead chain,
with warp.optim.SGD + momentum; one tape object is reset at the top of every iteration.
"""
import numpy as np
import warp as wp
import warp.optim

from _polymer import chain_forces, random_walk_chain, wca_force

N_BEADS = 16
N_SNAP = 6


@wp.kernel
def cg_forces(x: wp.array2d(dtype=wp.vec3), th: wp.array(dtype=float), f: wp.array2d(dtype=wp.vec3)):
    s, i = wp.tid()
    n = x.shape[1]
    fi = wp.vec3()
    for j in range(n):
        d = x[s, i] - x[s, j]
        if j == i - 1 or j == i + 1:
            r = wp.length(d)
            fi -= 2.0 * th[0] * (r - th[1]) * d / r
        elif j != i:
            fi += wca_force(d)
    f[s, i] = fi


@wp.kernel
def force_mse(f: wp.array2d(dtype=wp.vec3), f_ref: wp.array2d(dtype=wp.vec3), loss: wp.array(dtype=float)):
    s, i = wp.tid()
    d = f[s, i] - f_ref[s, i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(f.shape[0] * f.shape[1]))


def reference_snapshots():
    xs = np.stack([random_walk_chain(N_BEADS, 0.97, seed=100 + s) for s in range(N_SNAP)])
    xs += 0.03 * np.random.default_rng(9).standard_normal(xs.shape).astype(np.float32)
    fene = wp.array([30.0, 1.5], dtype=float)
    fs = []
    for x in xs:
        f = wp.zeros(N_BEADS, dtype=wp.vec3)
        wp.launch(chain_forces, dim=N_BEADS, inputs=[wp.array(x, dtype=wp.vec3), fene], outputs=[f])
        fs.append(f.numpy())
    return xs, np.stack(fs)


X_REF, F_REF = reference_snapshots()
THETA0 = np.array([12.0, 0.9], dtype=np.float32)  # k_b, b0


def record_loss(theta):
    x = wp.array(X_REF, dtype=wp.vec3)
    f_ref = wp.array(F_REF, dtype=wp.vec3)
    f = wp.zeros(x.shape, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(cg_forces, dim=x.shape, inputs=[x, theta], outputs=[f])
    wp.launch(force_mse, dim=x.shape, inputs=[f, f_ref], outputs=[loss])
    return loss


def train(n_iter, lr=2e-4):
    theta = wp.array(THETA0, dtype=float, requires_grad=True)
    opt = warp.optim.SGD([theta], lr=lr, momentum=0.5)
    history = []
    tape = wp.Tape()
    for it in range(n_iter):
        tape.reset()
        with tape:
            loss = record_loss(theta)
        tape.backward(loss)
        history.append((theta.numpy().copy(), theta.grad.numpy().copy(), float(loss.numpy()[0])))
        opt.step([theta.grad])
    return theta, history


def objective(th):
    return float(record_loss(wp.array(np.asarray(th, dtype=np.float32), dtype=float)).numpy()[0])


def verify(n_iter=5, eps=(1e-2, 1e-4)):
    """Gradient SGD consumed at the last iteration vs central FD of the loss there."""
    _, hist = train(n_iter)
    th, g, _ = hist[-1]
    fd = []
    for k in range(th.size):
        e = np.zeros_like(th, dtype=np.float64)
        e[k] = eps[k]
        fd.append((objective(th + e) - objective(th - e)) / (2 * eps[k]))
    return g, np.array(fd)


if __name__ == "__main__":
    theta, hist = train(5)
    for it, (th, g, L) in enumerate(hist):
        print(f"iter {it}: force MSE {L:.3f} (k_b, b0) = {np.round(th, 4)} grad {np.round(g, 3)}")
