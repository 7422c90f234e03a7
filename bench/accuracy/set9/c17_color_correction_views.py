# correct: host-side gradient descent reads .grad through NumPy views, but uses them before tape.reset() clears the gradients
"""Fit a 3x3 colour-correction matrix and offset (with a display gamma) to reference swatches,
updating the parameters on the host with plain gradient descent."""

import numpy as np
import warp as wp

rng = np.random.default_rng(21)
N = 24
RAW = rng.uniform(0.05, 0.95, size=(N, 3)).astype(np.float32)
TRUE_M = np.array([[0.9, 0.15, -0.05], [0.05, 0.8, 0.1], [-0.02, 0.1, 1.05]], dtype=np.float32)
REF = np.clip(RAW @ TRUE_M.T + 0.03, 0.0, 1.0) ** (1.0 / 2.2)
LR = 0.5


@wp.kernel
def apply_ccm(
    raw: wp.array(dtype=wp.vec3),
    ccm: wp.array(dtype=wp.mat33),
    offset: wp.array(dtype=wp.vec3),
    ref: wp.array(dtype=wp.vec3),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    lin = ccm[0] * raw[i] + offset[0]
    disp = wp.vec3(
        wp.pow(wp.max(lin[0], 1.0e-4), 1.0 / 2.2),
        wp.pow(wp.max(lin[1], 1.0e-4), 1.0 / 2.2),
        wp.pow(wp.max(lin[2], 1.0e-4), 1.0 / 2.2),
    )
    d = disp - ref[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(raw.shape[0]))


def objective(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(
        apply_ccm,
        dim=N,
        inputs=[wp.array(RAW, dtype=wp.vec3), wp.array([p[:9].reshape(3, 3)], dtype=wp.mat33),
                wp.array([p[9:]], dtype=wp.vec3), wp.array(REF, dtype=wp.vec3)],
        outputs=[loss],
    )
    return float(loss.numpy()[0])


def fit(iters=100, verbose=False):
    raw = wp.array(RAW, dtype=wp.vec3)
    ref = wp.array(REF, dtype=wp.vec3)
    ccm = wp.array([np.eye(3, dtype=np.float32)], dtype=wp.mat33, requires_grad=True)
    offset = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    history = [np.concatenate([ccm.numpy().ravel(), offset.numpy().ravel()])]
    tape = wp.Tape()
    for it in range(iters):
        loss.zero_()
        with tape:
            wp.launch(apply_ccm, dim=N, inputs=[raw, ccm, offset, ref], outputs=[loss])
        tape.backward(loss)
        g_ccm = ccm.grad.numpy()
        g_off = offset.grad.numpy()
        m = ccm.numpy()
        m -= LR * g_ccm
        o = offset.numpy()
        o -= LR * g_off
        tape.reset()
        history.append(np.concatenate([ccm.numpy().ravel(), offset.numpy().ravel()]))
        if verbose and it % 20 == 0:
            print(f"iter {it:3d}  loss {loss.numpy()[0]:.6f}")
    return history


def verify(iters=3, eps=1e-3):
    """Step the program applied at its last iteration (as a gradient) vs central differences there."""
    history = fit(iters)
    p = history[-2].astype(np.float64)
    ad = (history[-2] - history[-1]) / LR
    fd = np.zeros_like(p)
    for k in range(p.size):
        hi, lo = p.copy(), p.copy()
        hi[k] += eps
        lo[k] -= eps
        fd[k] = (objective(hi.astype(np.float32)) - objective(lo.astype(np.float32))) / (2 * eps)
    return ad, fd


if __name__ == "__main__":
    hist = fit(verbose=True)
    print("ccm\n", np.round(hist[-1][:9].reshape(3, 3), 3), "\noffset", np.round(hist[-1][9:], 3))
