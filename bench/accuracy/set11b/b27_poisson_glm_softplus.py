"""Poisson regression for event counts with a softplus link,
rate = softplus(w . x + b). The softplus has a hand-written, overflow-safe
adjoint."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 60
rng = np.random.default_rng(4)
FEATS = rng.uniform(-1.0, 1.0, size=(N, 3)).astype(np.float32)
TRUE_W = np.array([1.2, -0.7, 0.4, 0.8])
COUNTS = rng.poisson(np.log1p(np.exp(FEATS @ TRUE_W[:3] + TRUE_W[3]))).astype(np.float32)
PARAMS0 = [0.5, 0.0, 0.0, 0.3]


@wp.func
def softplus(x: float):
    return wp.max(x, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(x)))


@wp.func_grad(softplus)
def adj_softplus(x: float, adj_ret: float):
    e = wp.exp(-wp.abs(x))
    sig = wp.where(x >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e))
    wp.adjoint[x] += adj_ret * (1.0 - sig)  # expect: custom_adjoint


@wp.kernel
def poisson_nll(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=float), wb: wp.array(dtype=float),
                nll: wp.array(dtype=float)):
    i = wp.tid()
    eta = wb[0] * x[i][0] + wb[1] * x[i][1] + wb[2] * x[i][2] + wb[3]
    rate = softplus(eta) + 1.0e-6
    wp.atomic_add(nll, 0, (rate - y[i] * wp.log(rate)) / float(x.shape[0]))


def evaluate(p):
    wb = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(FEATS, dtype=wp.vec3)
    y = wp.array(COUNTS, dtype=float)
    nll = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(poisson_nll, dim=N, inputs=[x, y, wb], outputs=[nll])
    tape.backward(nll)
    return float(nll.numpy()[0]), wb.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(100):
        l, g = evaluate(p)
        p -= 0.3 * g
        if it % 25 == 0:
            print(f"iter {it} nll {l:.4f} w {np.round(p, 3)}")
