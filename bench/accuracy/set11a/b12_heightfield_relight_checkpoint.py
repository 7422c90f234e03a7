"""Shape from shading on a height field, split in two checkpointed stages: the
geometry stage (positions and normals of a Gaussian bump) and the shading
stage (point light, half-Lambert) are recorded on separate tapes and chained
by hand in the backward pass."""
import numpy as np
import warp as wp

G = 10
LIGHT = wp.constant(wp.vec3(0.3, -0.4, 1.5))


@wp.kernel
def bump_geometry(params: wp.array(dtype=float), pos: wp.array(dtype=wp.vec3), nrm: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    x = float(k % G) / float(G - 1) - 0.5
    y = float(k // G) / float(G - 1) - 0.5
    a = params[0]
    s = params[1]
    dx = x - params[2]
    h = a * wp.exp(-(dx * dx + y * y) / (s * s))
    hx = -2.0 * dx / (s * s) * h
    hy = -2.0 * y / (s * s) * h
    pos[k] = wp.vec3(x, y, h)
    nrm[k] = wp.normalize(wp.vec3(-hx, -hy, 1.0))


@wp.kernel
def shade(pos: wp.array(dtype=wp.vec3), nrm: wp.array(dtype=wp.vec3), target: wp.array(dtype=float),
          loss: wp.array(dtype=float)):
    k = wp.tid()
    d = LIGHT - pos[k]
    r2 = wp.dot(d, d)
    c = (0.5 + 0.5 * wp.dot(nrm[k], d / wp.sqrt(r2))) / r2
    e = c - target[k]
    wp.atomic_add(loss, 0, e * e)


def geometry_np(p):
    s = np.linspace(-0.5, 0.5, G)
    X, Y = np.meshgrid(s, s)
    X, Y = X.ravel(), Y.ravel()
    dx = X - p[2]
    h = p[0] * np.exp(-(dx * dx + Y * Y) / p[1] ** 2)
    n = np.stack([2 * dx / p[1] ** 2 * h, 2 * Y / p[1] ** 2 * h, np.ones_like(h)], 1)
    return np.stack([X, Y, h], 1), n / np.linalg.norm(n, axis=1, keepdims=True)


def target_np(p):
    P, N = geometry_np(p)
    d = np.array([0.3, -0.4, 1.5]) - P
    r2 = (d * d).sum(1)
    return ((0.5 + 0.5 * (N * d).sum(1) / np.sqrt(r2)) / r2).astype(np.float32)


TARGET = target_np([0.25, 0.3, 0.1])
PARAMS0 = [0.15, 0.35, 0.0]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pos = wp.zeros(G * G, dtype=wp.vec3, requires_grad=True)
    nrm = wp.zeros(G * G, dtype=wp.vec3, requires_grad=True)
    tape_geo = wp.Tape()
    with tape_geo:
        wp.launch(bump_geometry, dim=G * G, inputs=[params], outputs=[pos, nrm])

    # checkpoint: the shading stage starts from detached copies
    pos_cp = wp.clone(pos)
    nrm_cp = wp.clone(nrm)
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape_shade = wp.Tape()
    with tape_shade:
        wp.launch(shade, dim=G * G, inputs=[pos_cp, nrm_cp, target], outputs=[loss])
    tape_shade.backward(loss)

    tape_geo.backward(grads={pos: pos_cp.grad})  # expect: seeding
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"shading loss {l:.3e} bump height {p[0]:.3f} width {p[1]:.3f} centre {p[2]:.3f}")
