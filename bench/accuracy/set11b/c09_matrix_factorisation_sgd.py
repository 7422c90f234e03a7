# correct: one tape object is reused across training iterations, but tape.reset() at the top of every iteration clears the old launches and zeroes all gradients before recording.
"""Rank-2 matrix factorisation of a partially observed rating matrix
(6 users x 8 items) with warp.optim.SGD + momentum; the user and item factors
are wp.vec2 arrays."""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

U = 6
I = 8
ITERS = 5
rng = np.random.default_rng(12)
TRUE_U = rng.normal(0.0, 1.0, size=(U, 2))
TRUE_V = rng.normal(0.0, 1.0, size=(I, 2))
RATINGS = (TRUE_U @ TRUE_V.T).astype(np.float32)
OBSERVED = (rng.uniform(size=(U, I)) < 0.6).astype(np.float32)
U0 = (0.5 * rng.normal(size=(U, 2))).astype(np.float32)
V0 = (0.5 * rng.normal(size=(I, 2))).astype(np.float32)
LAMBDA = 0.05


@wp.kernel
def masked_sq_error(pu: wp.array(dtype=wp.vec2), qv: wp.array(dtype=wp.vec2), r: wp.array2d(dtype=float),
                    mask: wp.array2d(dtype=float), lam: float, loss: wp.array(dtype=float)):
    u, i = wp.tid()
    e = wp.dot(pu[u], qv[i]) - r[u, i]
    wp.atomic_add(loss, 0, mask[u, i] * e * e + lam * (wp.dot(pu[u], pu[u]) / float(I) + wp.dot(qv[i], qv[i]) / float(U)))


def loss_of(pu, qv):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(masked_sq_error, dim=(U, I), inputs=[pu, qv, wp.array(RATINGS, dtype=float),
                                                    wp.array(OBSERVED, dtype=float), LAMBDA], outputs=[loss])
    return loss


def objective(flat):
    pu = wp.array(flat[: 2 * U].reshape(U, 2).astype(np.float32), dtype=wp.vec2)
    qv = wp.array(flat[2 * U:].reshape(I, 2).astype(np.float32), dtype=wp.vec2)
    return float(loss_of(pu, qv).numpy()[0])


def train(iters, log=False):
    pu = wp.array(U0, dtype=wp.vec2, requires_grad=True)
    qv = wp.array(V0, dtype=wp.vec2, requires_grad=True)
    opt = warp.optim.SGD([pu, qv], lr=0.02, momentum=0.8)
    tape = wp.Tape()
    for it in range(iters):
        tape.reset()
        with tape:
            loss = loss_of(pu, qv)
        tape.backward(loss)
        at = np.concatenate([pu.numpy().ravel(), qv.numpy().ravel()]).astype(np.float64)
        used = np.concatenate([pu.grad.numpy().ravel(), qv.grad.numpy().ravel()]).astype(np.float64)
        opt.step([pu.grad, qv.grad])
        if log and it % 20 == 0:
            print(f"iter {it:3d} loss {loss.numpy()[0]:.4f}")
    return at, used


def verify():
    at, ad = train(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    at, _ = train(60, log=True)
    print("final loss", objective(at))
