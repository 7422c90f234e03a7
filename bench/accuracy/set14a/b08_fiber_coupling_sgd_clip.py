"""Coupling a batch of edge-emitting laser diodes into single-mode fibre.

Each diode emits an elliptical Gaussian beam (waists w0x, w0y measured per chip); a
lens of focal length f at 2 mm images it onto the fibre face at distance L. The mean
coupling loss in dB over the batch is minimised over (f, L) with SGD and gradient-norm
clipping.
"""
import numpy as np
import warp as wp
import warp.optim

LAM = 1.55e-3      # mm
W_FIBRE = 5.2e-3   # mm, SMF-28 mode-field radius
S_LENS = 2.0       # mm, diode to lens
rng = np.random.default_rng(11)
W0 = np.stack([rng.uniform(1.3e-3, 1.7e-3, 16), rng.uniform(0.9e-3, 1.1e-3, 16)], axis=1).astype(np.float32)
PRM0 = np.array([1.50, 6.4], dtype=np.float32)  # f, L (mm)


@wp.func
def axis_coupling(w0: float, f: float, L: float, lam: float, s: float, w_f: float):
    zr = wp.pi * w0 * w0 / lam
    den = (s - f) * (s - f) + zr * zr
    w1 = w0 * f / wp.sqrt(den)
    s_img = f + (s - f) * f * f / den
    dz = L - s_img
    a = w1 / w_f + w_f / w1
    b = lam * dz / (wp.pi * w1 * w_f)
    return 2.0 / wp.sqrt(a * a + b * b)


@wp.kernel
def coupling_loss_db(w0: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    eta = axis_coupling(w0[i][0], prm[0], prm[1], LAM, S_LENS, W_FIBRE) * axis_coupling(
        w0[i][1], prm[0], prm[1], LAM, S_LENS, W_FIBRE)
    wp.atomic_add(loss, 0, -10.0 * wp.log10(eta) / float(w0.shape[0]))


@wp.kernel
def clip_norm(g: wp.array(dtype=float), g_max: float):
    i = wp.tid()
    n = wp.sqrt(g[0] * g[0] + g[1] * g[1])
    g[i] = g[i] * wp.min(1.0, g_max / n)


def batch_loss(prm):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(coupling_loss_db, dim=len(W0), inputs=[wp.array(W0, dtype=wp.vec2), prm], outputs=[loss])
    return loss


def train(n_iter=5, lr=2e-4, g_max=50.0):
    prm = wp.array(PRM0, dtype=float, requires_grad=True)
    opt = warp.optim.SGD([prm], lr=lr)
    history = []
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = batch_loss(prm)
        tape.backward(loss)
        history.append((prm.numpy().copy(), prm.grad.numpy().copy(), float(loss.numpy()[0])))
        g = wp.clone(prm.grad)
        wp.launch(clip_norm, dim=2, inputs=[g, g_max])
        opt.step([g])
        g.zero_()  # expect: missing_zero
    return history


def objective(x):
    return float(batch_loss(wp.array(np.asarray(x, dtype=np.float32), dtype=float)).numpy()[0])


def verify(n_iter=5, eps=1e-4):
    """Gradient SGD consumed at the last iteration vs central FD of the batch loss there."""
    x, g, _ = train(n_iter)[-1]
    fd = []
    for k in range(x.size):
        e = np.zeros(x.size)
        e[k] = eps
        fd.append((objective(x + e) - objective(x - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    for it, (x, g, L) in enumerate(train(5)):
        print(f"iter {it}: coupling loss {L:.3f} dB, (f, L) = {x}, grad {g}")
