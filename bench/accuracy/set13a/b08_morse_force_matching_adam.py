"""Morse pair potential (D, alpha, r0) fitted to reference energies and forces of 12
argon trimers (force matching) with warp.optim.Adam and a fresh tape per iteration.
"""
import numpy as np
import warp as wp
import warp.optim

from _refdata import reference_energy, reference_forces, trimer_configs

W_ENERGY = 0.5


@wp.func
def morse(r: float, D: float, a: float, r0: float):
    ex = wp.exp(-a * (r - r0))
    return D * (ex * ex - 2.0 * ex)


@wp.func
def morse_dr(r: float, D: float, a: float, r0: float):
    ex = wp.exp(-a * (r - r0))
    return 2.0 * D * a * (ex - ex * ex)


@wp.kernel
def model_energy_forces(x: wp.array2d(dtype=wp.vec3), th: wp.array(dtype=float),
                        e: wp.array(dtype=float), f: wp.array2d(dtype=wp.vec3)):
    c, i = wp.tid()
    fi = wp.vec3()
    for j in range(x.shape[1]):
        if j != i:
            d = x[c, i] - x[c, j]
            r = wp.length(d)
            fi -= morse_dr(r, th[0], th[1], th[2]) * d / r
            if j > i:
                wp.atomic_add(e, c, morse(r, th[0], th[1], th[2]))
    f[c, i] = fi


@wp.kernel
def matching_loss(e: wp.array(dtype=float), f: wp.array2d(dtype=wp.vec3), e_ref: wp.array(dtype=float),
                  f_ref: wp.array2d(dtype=wp.vec3), w_e: float, loss: wp.array(dtype=float)):
    c, i = wp.tid()
    df = f[c, i] - f_ref[c, i]
    nc = float(f.shape[0])
    wp.atomic_add(loss, 0, wp.dot(df, df) / (nc * float(f.shape[1])))
    if i == 0:
        de = e[c] - e_ref[c]
        wp.atomic_add(loss, 0, w_e * de * de / nc)


CONFS = trimer_configs(12, seed=7)
E_REF = np.array([reference_energy(x) for x in CONFS], dtype=np.float32)
F_REF = np.array([reference_forces(x) for x in CONFS], dtype=np.float32)
THETA0 = np.array([1.0, 5.0, 1.1], dtype=np.float32)


def record_loss(theta):
    x = wp.array(CONFS, dtype=wp.vec3)
    e_ref = wp.array(E_REF, dtype=float)
    f_ref = wp.array(F_REF, dtype=wp.vec3)
    e = wp.zeros(len(CONFS), dtype=float, requires_grad=True)
    f = wp.zeros(x.shape, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(model_energy_forces, dim=x.shape, inputs=[x, theta], outputs=[e, f])
    wp.launch(matching_loss, dim=x.shape, inputs=[e, f, e_ref, f_ref, W_ENERGY], outputs=[loss])
    return loss


def train(n_iter, lr=0.01):
    theta = wp.array(THETA0, dtype=float, requires_grad=True)
    opt = warp.optim.Adam([theta], lr=lr)
    history = []
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = record_loss(theta)
        tape.backward(loss)
        history.append((theta.numpy().copy(), theta.grad.numpy().copy(), float(loss.numpy()[0])))
        opt.step([theta.grad])
        loss.grad.zero_()  # expect: missing_zero
    return theta, history


def objective(th):
    return float(record_loss(wp.array(np.asarray(th, dtype=np.float32), dtype=float)).numpy()[0])


def verify(n_iter=6, eps=1e-3):
    """Gradient Adam consumed at the last iteration vs central FD of the loss there."""
    _, hist = train(n_iter)
    th, g, _ = hist[-1]
    fd = []
    for k in range(th.size):
        e = np.zeros_like(th, dtype=np.float64)
        e[k] = eps
        fd.append((objective(th + e) - objective(th - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    theta, hist = train(6)
    for it, (th, g, L) in enumerate(hist):
        print(f"iter {it}: loss {L:.5f} theta {np.round(th, 4)} grad {np.round(g, 4)}")
