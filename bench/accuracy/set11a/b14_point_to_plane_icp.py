"""Robust point-to-plane registration: align a scanned point cloud to model
points with normals (known correspondences), Geman-McClure loss, gradient
steps applied by a Warp kernel."""
import numpy as np
import warp as wp

N = 60
C2 = 0.05
FD_EPS = 1e-3


@wp.func
def rigid(xf: wp.array(dtype=float), p: wp.vec3):
    w = wp.vec3(xf[0], xf[1], xf[2])
    th = wp.length(w)
    q = wp.quat_from_axis_angle(w / th, th)
    return wp.quat_rotate(q, p) + wp.vec3(xf[3], xf[4], xf[5])


@wp.kernel
def point_to_plane(xf: wp.array(dtype=float), scan: wp.array(dtype=wp.vec3), model: wp.array(dtype=wp.vec3),
                   normal: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.dot(normal[i], rigid(xf, scan[i]) - model[i])
    wp.atomic_add(loss, 0, r * r / (r * r + C2) / float(N))


@wp.kernel
def descend(xf: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    k = wp.tid()
    xf[k] = xf[k] - lr * g[k]


def make_data():
    rng = np.random.default_rng(21)
    model = rng.uniform(-1, 1, (N, 3))
    normal = rng.standard_normal((N, 3))
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    w, t = np.array([0.1, -0.2, 0.15]), np.array([0.2, 0.1, -0.1])
    th = np.linalg.norm(w)
    k = w / th
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    R = np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * K @ K
    scan = (model - t) @ R  # model = R scan + t
    return scan.astype(np.float32), model.astype(np.float32), normal.astype(np.float32)


SCAN, MODEL, NORMAL = make_data()
XF0 = np.array([0.02, -0.05, 0.05, 0.0, 0.0, 0.0])


class Registration:
    def __init__(self, xf0, lr=0.3):
        self.scan = wp.array(SCAN, dtype=wp.vec3)
        self.model = wp.array(MODEL, dtype=wp.vec3)
        self.normal = wp.array(NORMAL, dtype=wp.vec3)
        self.xf = wp.array(np.asarray(xf0, dtype=np.float32), dtype=float, requires_grad=True)
        self.lr = lr
        self.log = []

    def step(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(point_to_plane, dim=N, inputs=[self.xf, self.scan, self.model, self.normal], outputs=[loss])
        grad = wp.clone(self.xf.grad)  # expect: grad_read
        tape.backward(loss)
        self.log.append((self.xf.numpy().astype(np.float64), grad.numpy().astype(np.float64)))
        wp.launch(descend, dim=6, inputs=[self.xf, grad, self.lr])
        tape.zero()
        return float(loss.numpy()[0])


def objective(xf):
    reg = Registration(xf)
    loss = wp.zeros(1, dtype=float)
    wp.launch(point_to_plane, dim=N, inputs=[reg.xf, reg.scan, reg.model, reg.normal], outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    reg = Registration(XF0)
    for _ in range(3):
        reg.step()
    xf, ad = reg.log[-1]
    fd = np.zeros(6)
    for k in range(6):
        a, b = xf.copy(), xf.copy()
        a[k] += FD_EPS
        b[k] -= FD_EPS
        fd[k] = (objective(a) - objective(b)) / (2 * FD_EPS)
    return ad, fd


if __name__ == "__main__":
    reg = Registration(XF0)
    for it in range(40):
        l = reg.step()
    print(f"robust point-to-plane loss {l:.3e}")
    print("transform", reg.xf.numpy().round(3))
