# correct: fixed-step steepest descent of a Morse chain on one tape, but every iterate is written into its own preallocated buffer, so no buffer a launch read is written again.
"""Force-extension of a Morse chain: 8 beads joined by Morse bonds are pulled at the
ends by a constant force and relaxed by fixed-step steepest descent. The end-to-end
distance of the relaxed chain is differentiated with respect to (D, alpha, r0).

The relaxation keeps the whole descent path (one buffer per iterate), which also
lets the script report how far the last iterations still moved.
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
    path = [wp.array(X0, dtype=wp.vec3, requires_grad=True)]
    path += [wp.empty_like(path[0]) for _ in range(N_ITERS)]
    ext = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(N_ITERS):
            wp.launch(descent_step, dim=N, inputs=[path[k], prm, PULL, STEP], outputs=[path[k + 1]])
        wp.launch(end_to_end, dim=1, inputs=[path[-1]], outputs=[ext])
    return tape, prm, ext, path


def evaluate(p):
    tape, prm, ext, _ = relaxed_extension(p)
    tape.backward(ext)
    return float(ext.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    tape, prm, ext, path = relaxed_extension(PARAMS0)
    tape.backward(ext)
    last_move = np.abs(path[-1].numpy() - path[-2].numpy()).max()
    print(f"relaxed end-to-end distance {ext.numpy()[0]:.4f} (last move {last_move:.2e}); "
          f"d/d(D, alpha, r0) = {prm.grad.numpy()}")
