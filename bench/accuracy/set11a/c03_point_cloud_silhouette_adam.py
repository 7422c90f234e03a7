# correct: the splat image is a persistent atomic_add accumulator, but it is zero_()-ed before every recording and the tape is reset each iteration.
"""Fit the yaw, pitch and distance of a point-cloud model so that its splatted
silhouette matches a target mask, with warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

RES = 12
FOCAL = 10.0
FD_EPS = 1e-3


@wp.kernel
def splat_points(pts: wp.array(dtype=wp.vec3), pose: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    k, i, j = wp.tid()
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), pose[0]) * wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), pose[1])
    pc = wp.quat_rotate(q, pts[k]) + wp.vec3(0.0, 0.0, pose[2])
    u = FOCAL * pc[0] / pc[2] + 0.5 * float(RES)
    v = FOCAL * pc[1] / pc[2] + 0.5 * float(RES)
    du = float(j) + 0.5 - u
    dv = float(i) + 0.5 - v
    wp.atomic_add(img, i, j, 0.5 * wp.exp(-(du * du + dv * dv)))


@wp.kernel
def mask_loss(img: wp.array2d(dtype=float), mask: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    occ = 1.0 - wp.exp(-img[i, j])
    d = occ - mask[i, j]
    wp.atomic_add(loss, 0, d * d)


PTS = (np.random.default_rng(17).uniform(-1, 1, (30, 3)) * np.array([0.5, 0.3, 0.2])).astype(np.float32)
POSE0 = np.array([0.2, 0.0, 3.0])


def silhouette(pose, requires_grad=False):
    img = wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad)
    wp.launch(splat_points, dim=(len(PTS), RES, RES), inputs=[wp.array(PTS, dtype=wp.vec3), pose], outputs=[img])
    return img


MASK = 1.0 - np.exp(-silhouette(wp.array([0.6, 0.25, 2.6], dtype=float)).numpy())


class Fitter:
    def __init__(self, pose0):
        self.pts = wp.array(PTS, dtype=wp.vec3)
        self.mask = wp.array(MASK.astype(np.float32), dtype=float)
        self.pose = wp.array(np.asarray(pose0, dtype=np.float32), dtype=float, requires_grad=True)
        self.img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        self.opt = Adam([self.pose], lr=0.03)
        self.log = []

    def step(self):
        self.tape.reset()
        self.img.zero_()
        self.loss.zero_()
        with self.tape:
            wp.launch(splat_points, dim=(len(PTS), RES, RES), inputs=[self.pts, self.pose], outputs=[self.img])
            wp.launch(mask_loss, dim=(RES, RES), inputs=[self.img, self.mask], outputs=[self.loss])
        self.tape.backward(self.loss)
        self.log.append((self.pose.numpy().astype(np.float64), self.pose.grad.numpy().astype(np.float64)))
        self.opt.step([self.pose.grad])
        return float(self.loss.numpy()[0])


def objective(pose):
    img = silhouette(wp.array(np.asarray(pose, dtype=np.float32), dtype=float))
    loss = wp.zeros(1, dtype=float)
    wp.launch(mask_loss, dim=(RES, RES), inputs=[img, wp.array(MASK.astype(np.float32), dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    f = Fitter(POSE0)
    for _ in range(4):
        f.step()
    pose, ad = f.log[-1]
    fd = np.zeros(3)
    for k in range(3):
        a, b = pose.copy(), pose.copy()
        a[k] += FD_EPS
        b[k] -= FD_EPS
        fd[k] = (objective(a) - objective(b)) / (2 * FD_EPS)
    return ad, fd


if __name__ == "__main__":
    f = Fitter(POSE0)
    for it in range(40):
        l = f.step()
        if it % 10 == 0:
            print(f"iter {it:2d} mask loss {l:.4f}")
    print("pose", f.pose.numpy().round(3))
