"""Fit a weighted point cloud (positions and log-masses) to a target
distribution by minimising the entropic optimal-transport cost, computed with
unrolled Sinkhorn iterations, with warp.optim.Adam."""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

M = 8
N = 10
EPS = 0.05
SINKHORN_ITERS = 15
TRAIN_ITERS = 4

X0 = np.linspace(-0.6, 0.9, M).astype(np.float32)
LW0 = np.linspace(0.3, -0.3, M).astype(np.float32)
YS = np.array([-0.8, -0.7, -0.55, -0.2, 0.0, 0.1, 0.45, 0.5, 0.7, 1.0], dtype=np.float32)


@wp.kernel
def gibbs(xs: wp.array(dtype=float), ys: wp.array(dtype=float), eps: float,
          K: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = xs[i] - ys[j]
    C[i, j] = d * d
    K[i, j] = wp.exp(-d * d / eps)


@wp.kernel
def exp_sum(lw: wp.array(dtype=float), s: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(s, 0, wp.exp(lw[i]))


@wp.kernel
def normalise(lw: wp.array(dtype=float), s: wp.array(dtype=float), a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.exp(lw[i]) / s[0]


@wp.kernel
def scale_rows(K: wp.array2d(dtype=float), v: wp.array(dtype=float), a: wp.array(dtype=float),
               u: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(N):
        acc += K[i, j] * v[j]
    u[i] = a[i] / acc


@wp.kernel
def scale_cols(K: wp.array2d(dtype=float), u: wp.array(dtype=float), b: wp.array(dtype=float),
               v: wp.array(dtype=float)):
    j = wp.tid()
    acc = float(0.0)
    for i in range(M):
        acc += K[i, j] * u[i]
    v[j] = b[j] / acc


@wp.kernel
def transport_cost(u: wp.array(dtype=float), K: wp.array2d(dtype=float), v: wp.array(dtype=float),
                   C: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(loss, 0, u[i] * K[i, j] * v[j] * C[i, j])


def ot_loss(xs, lw, ys, b):
    K = wp.zeros((M, N), dtype=float, requires_grad=True)
    C = wp.zeros((M, N), dtype=float, requires_grad=True)
    s = wp.zeros(1, dtype=float, requires_grad=True)
    a = wp.zeros(M, dtype=float, requires_grad=True)
    wp.launch(gibbs, dim=(M, N), inputs=[xs, ys, EPS], outputs=[K, C])
    wp.launch(exp_sum, dim=M, inputs=[lw], outputs=[s])
    wp.launch(normalise, dim=M, inputs=[lw, s], outputs=[a])
    v = wp.ones(N, dtype=float, requires_grad=True)
    for _ in range(SINKHORN_ITERS):
        u = wp.zeros(M, dtype=float, requires_grad=True)
        wp.launch(scale_rows, dim=M, inputs=[K, v, a], outputs=[u])
        v = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(scale_cols, dim=N, inputs=[K, u, b], outputs=[v])
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(transport_cost, dim=(M, N), inputs=[u, K, v, C], outputs=[loss])
    return loss


def objective(p):
    xs = wp.array(p[:M].astype(np.float32), dtype=float)
    lw = wp.array(p[M:].astype(np.float32), dtype=float)
    ys = wp.array(YS, dtype=float)
    b = wp.full(N, 1.0 / N, dtype=float)
    return float(ot_loss(xs, lw, ys, b).numpy()[0])


def train(iters, log=False):
    xs = wp.array(X0, dtype=float, requires_grad=True)
    lw = wp.array(LW0, dtype=float, requires_grad=True)
    ys = wp.array(YS, dtype=float)
    b = wp.full(N, 1.0 / N, dtype=float)
    params = [xs, lw]
    opt = warp.optim.Adam(params, lr=0.03)
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = ot_loss(xs, lw, ys, b)
        tape.backward(loss)
        at = np.concatenate([xs.numpy(), lw.numpy()]).astype(np.float64)
        used = np.concatenate([xs.grad.numpy(), lw.grad.numpy()]).astype(np.float64)
        opt.step([xs.grad, lw.grad])
        for arr in params[:1]:  # expect: missing_zero
            arr.grad.zero_()
        if log:
            print(f"iter {it} OT cost {loss.numpy()[0]:.5f}")
    return at, used


def verify():
    at, ad = train(TRAIN_ITERS)
    h = 1.0e-3
    fd = np.zeros_like(at)
    for k in range(at.size):
        e = np.zeros_like(at)
        e[k] = h
        fd[k] = (objective(at + e) - objective(at - e)) / (2.0 * h)
    return ad, fd


if __name__ == "__main__":
    train(12, log=True)
