# correct: the kernel assigns components of a local wp.vec3 one by one, but each component of the freshly constructed vector is assigned exactly once.
"""A random-Fourier-feature neural field (x, y) -> (u, v, p) fitted to
samples of the Taylor-Green vortex; the 3x3 output layer (wp.mat33) and a
feature bandwidth are learned."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 64
rng = np.random.default_rng(41)
XY = rng.uniform(0.0, np.pi, size=(N, 2)).astype(np.float32)
UVP = np.stack([np.sin(XY[:, 0]) * np.cos(XY[:, 1]), -np.cos(XY[:, 0]) * np.sin(XY[:, 1]),
                0.25 * (np.cos(2 * XY[:, 0]) + np.cos(2 * XY[:, 1]))], axis=1).astype(np.float32)
B_FEAT = rng.normal(0.0, 1.0, size=(3, 2)).astype(np.float32)
PARAMS0 = [0.3, -0.2, 0.1, 0.0, 0.4, -0.3, 0.2, 0.1, 0.2, 1.2]   # output layer (9), bandwidth


@wp.kernel
def field(xy: wp.array(dtype=wp.vec2), bf: wp.array(dtype=wp.vec2), w: wp.array(dtype=wp.mat33),
          bw: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = bw[0] * xy[i]
    phi = wp.vec3()
    phi[0] = wp.sin(wp.dot(bf[0], p))
    phi[1] = wp.sin(wp.dot(bf[1], p) + 0.5)
    phi[2] = wp.cos(wp.dot(bf[2], p))
    out[i] = w[0] * phi


@wp.kernel
def mse(out: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = out[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(out.shape[0]))


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    w = wp.array([wp.mat33(*p[:9])], dtype=wp.mat33, requires_grad=True)
    bw = wp.array(p[9:], dtype=float, requires_grad=True)
    xy = wp.array(XY, dtype=wp.vec2)
    bf = wp.array(B_FEAT, dtype=wp.vec2)
    target = wp.array(UVP, dtype=wp.vec3)
    out = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(field, dim=N, inputs=[xy, bf, w, bw], outputs=[out])
        wp.launch(mse, dim=N, inputs=[out, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([w.grad.numpy().reshape(-1), bw.grad.numpy()])


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(100):
        l, g = evaluate(p)
        p -= 0.3 * g
        if it % 25 == 0:
            print(f"iter {it} field mse {l:.4f}")
