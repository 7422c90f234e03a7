"""Force-extension of a Morse chain: 8 beads joined by Morse bonds are pulled at the
ends by a constant force and relaxed by fixed-step steepest descent. The end-to-end
distance of the relaxed chain is differentiated with respect to (D, alpha, r0).

The relaxation ping-pongs between two preallocated position buffers on one tape.
"""
import numpy as np
import warp as wp

N = 8
N_ITERS = 40
STEP = 0.02
PULL = 1.5


@wp.func
def morse_bond_force(d: wp.vec3, D: float, alpha: float, r0: float):
    # force on the first bead of the bond, d = x_i - x_j
    r = wp.length(d)
    ex = wp.exp(-alpha * (r - r0))
    dUdr = 2.0 * D * alpha * (ex - ex * ex)
    return -dUdr * d / r


@wp.kernel
def descent_step(x: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), pull: float, step: float,
                 x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    n = x.shape[0]
    f = wp.vec3()
    if i > 0:
        f += morse_bond_force(x[i] - x[i - 1], prm[0], prm[1], prm[2])
    if i < n - 1:
        f += morse_bond_force(x[i] - x[i + 1], prm[0], prm[1], prm[2])
    if i == 0:
        f += wp.vec3(-pull, 0.0, 0.0)
    if i == n - 1:
        f += wp.vec3(pull, 0.0, 0.0)
    x_out[i] = x[i] + step * f


@wp.kernel
def end_to_end(x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    out[0] = wp.length(x[x.shape[0] - 1] - x[0])


rng = np.random.default_rng(11)
X0 = np.zeros((N, 3), dtype=np.float32)
X0[:, 0] = np.arange(N) * 1.1
X0[:, 1:] = 0.15 * rng.standard_normal((N, 2))
PARAMS0 = np.array([2.0, 1.2, 1.0])  # D, alpha, r0
FD_EPS = 1e-3


def relaxed_extension(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x_cur = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    x_nxt = wp.empty_like(x_cur)
    ext = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_ITERS):
            wp.launch(descent_step, dim=N, inputs=[x_cur, prm, PULL, STEP], outputs=[x_nxt])
            x_cur, x_nxt = x_nxt, x_cur  # expect: overwrite
        wp.launch(end_to_end, dim=1, inputs=[x_cur], outputs=[ext])
    return tape, prm, ext


def evaluate(p):
    tape, prm, ext = relaxed_extension(p)
    tape.backward(ext)
    return float(ext.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"relaxed end-to-end distance {L:.4f}; d/d(D, alpha, r0) = {g}")
