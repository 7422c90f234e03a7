"""Tiny 3D Gaussian splatting: project isotropic 3D Gaussians through a pinhole
camera and blend them into an image; fit positions and opacities to a photo."""
import numpy as np
import warp as wp

RES = 16
K = 3
SIGMA = 0.25


@wp.struct
class Camera:
    focal: float
    cx: float
    cy: float


@wp.kernel
def project(cam: Camera, mu: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    p = mu[k]
    inv_z = 1.0 / p[2]
    out[k] = wp.vec3(cam.focal * p[0] * inv_z + cam.cx, cam.focal * p[1] * inv_z + cam.cy, cam.focal * SIGMA * inv_z)


@wp.kernel
def rasterize(splats: wp.array(dtype=wp.vec3), opacity: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    px = float(j) + 0.5
    py = float(i) + 0.5
    c = float(0.0)
    for k in range(K):
        s = splats[k]
        dx = px - s[0]
        dy = py - s[1]
        c += opacity[k] * wp.exp(-0.5 * (dx * dx + dy * dy) / (s[2] * s[2]))
    img[i, j] = c


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


class GaussianRenderer:
    def __init__(self):
        self.cam = Camera()
        self.cam.focal = 20.0
        self.cam.cx = RES / 2.0
        self.cam.cy = RES / 2.0
        self.splats = wp.zeros(K, dtype=wp.vec3)  # expect: requires_grad
        self.img = wp.zeros((RES, RES), dtype=float, requires_grad=True)

    def render(self, mu, opacity):
        wp.launch(project, dim=K, inputs=[self.cam, mu], outputs=[self.splats])
        wp.launch(rasterize, dim=(RES, RES), inputs=[self.splats, opacity], outputs=[self.img])
        return self.img


TRUE_MU = np.array([[-0.3, -0.2, 2.0], [0.35, -0.1, 2.4], [0.0, 0.3, 1.8]], dtype=np.float32)
TRUE_OP = np.array([0.8, 0.6, 0.9], dtype=np.float32)


def reference():
    r = GaussianRenderer()
    return r.render(wp.array(TRUE_MU, dtype=wp.vec3), wp.array(TRUE_OP, dtype=float)).numpy().copy()


REF = reference()
PARAMS0 = list(np.concatenate([TRUE_MU.ravel() + np.array([0.05, 0.04, 0.1, -0.05, 0.03, -0.1, 0.02, -0.05, 0.1]),
                               [0.6, 0.7, 0.7]]))


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    mu = wp.array(p[:3 * K].reshape(K, 3), dtype=wp.vec3, requires_grad=True)
    opacity = wp.array(p[3 * K:], dtype=float, requires_grad=True)
    ref = wp.array(REF, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    renderer = GaussianRenderer()
    tape = wp.Tape()
    with tape:
        img = renderer.render(mu, opacity)
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, ref], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([mu.grad.numpy().ravel(), opacity.grad.numpy()])
    return float(loss.numpy()[0]), g.astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p -= 0.002 * g
    print(f"photo loss {l:.4f}")
    print("positions", p[:3 * K].reshape(K, 3).round(3))
