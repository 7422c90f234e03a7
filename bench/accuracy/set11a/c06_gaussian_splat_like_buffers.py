# correct: the projected-splat intermediate is allocated without an explicit requires_grad, but with zeros_like of the 3D means, so it inherits requires_grad=True.
"""Tiny 3D Gaussian splatting with front-to-back alpha compositing of depth-sorted
splats: fit the 3D positions and scales of three Gaussians to a photo."""
import numpy as np
import warp as wp

RES = 16
K = 3
FOCAL = 20.0


@wp.kernel
def project(mu: wp.array(dtype=wp.vec3), scale: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    p = mu[k]
    out[k] = wp.vec3(FOCAL * p[0] / p[2] + 0.5 * float(RES), FOCAL * p[1] / p[2] + 0.5 * float(RES),
                     FOCAL * scale[k] / p[2])


@wp.kernel
def composite(splats: wp.array(dtype=wp.vec3), order: wp.array(dtype=int), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    trans = float(1.0)
    c = float(0.0)
    for n in range(K):
        s = splats[order[n]]
        dx = float(j) + 0.5 - s[0]
        dy = float(i) + 0.5 - s[1]
        alpha = 0.9 * wp.exp(-0.5 * (dx * dx + dy * dy) / (s[2] * s[2]))
        c += trans * alpha * (0.4 + 0.3 * float(order[n]))
        trans = trans * (1.0 - alpha)
    img[i, j] = c


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


def render(mu, scale):
    splats = wp.zeros_like(mu)
    order = wp.array(np.argsort(mu.numpy()[:, 2]).astype(np.int32), dtype=int)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=mu.requires_grad)
    wp.launch(project, dim=K, inputs=[mu, scale], outputs=[splats])
    wp.launch(composite, dim=(RES, RES), inputs=[splats, order], outputs=[img])
    return img


TRUE_MU = np.array([[-0.3, -0.2, 2.0], [0.35, -0.1, 2.4], [0.05, 0.25, 1.8]], dtype=np.float32)
TRUE_SCALE = np.array([0.25, 0.3, 0.2], dtype=np.float32)
REF = render(wp.array(TRUE_MU, dtype=wp.vec3), wp.array(TRUE_SCALE, dtype=float)).numpy().copy()
PARAMS0 = list(np.concatenate([(TRUE_MU + 0.04 * np.array([[1, -1, 2], [-1, 1, -2], [1, 1, 2]])).ravel(),
                               [0.22, 0.33, 0.22]]))


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    mu = wp.array(p[:3 * K].reshape(K, 3), dtype=wp.vec3, requires_grad=True)
    scale = wp.array(p[3 * K:], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        img = render(mu, scale)
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, wp.array(REF, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([mu.grad.numpy().ravel(), scale.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.002 * g
    print(f"photo loss {l:.4f}")
    print("positions", p[:3 * K].reshape(K, 3).round(3), "scales", p[3 * K:].round(3))
