"""Perspective-n-point by gradient descent: estimate a camera's rotation (axis-angle)
and translation from 2D detections of known 3D marker corners, with warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

N_PTS = 24
FOCAL = 1.2
FD_EPS = 1e-3


@wp.func
def camera_point(pose: wp.array(dtype=float), X: wp.vec3):
    w = wp.vec3(pose[0], pose[1], pose[2])
    th = wp.length(w)
    q = wp.quat_from_axis_angle(w / th, th)
    return wp.quat_rotate(q, X) + wp.vec3(pose[3], pose[4], pose[5])


@wp.kernel
def reprojection(pose: wp.array(dtype=float), X: wp.array(dtype=wp.vec3), uv: wp.array(dtype=wp.vec2),
                 loss: wp.array(dtype=float)):
    i = wp.tid()
    pc = camera_point(pose, X[i])
    r = wp.vec2(FOCAL * pc[0] / pc[2], FOCAL * pc[1] / pc[2]) - uv[i]
    wp.atomic_add(loss, 0, wp.dot(r, r) / float(N_PTS))


def scene():
    rng = np.random.default_rng(5)
    X = rng.uniform(-1.0, 1.0, (N_PTS, 3)).astype(np.float32)
    w, t = np.array([0.25, -0.15, 0.1]), np.array([0.1, -0.2, 4.0])
    th = np.linalg.norm(w)
    k = w / th
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    R = np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * K @ K
    pc = X @ R.T + t
    uv = FOCAL * pc[:, :2] / pc[:, 2:3]
    return X, uv.astype(np.float32)


X_WORLD, UV_OBS = scene()
POSE0 = np.array([0.15, -0.05, 0.05, 0.0, 0.0, 3.5])


class PoseEstimator:
    def __init__(self, pose0, lr=0.02):
        self.X = wp.array(X_WORLD, dtype=wp.vec3)
        self.uv = wp.array(UV_OBS, dtype=wp.vec2)
        self.pose = wp.array(np.asarray(pose0, dtype=np.float32), dtype=float, requires_grad=True)
        self.opt = Adam([self.pose], lr=lr)
        self.history = []

    def step(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        tape.zero()  # expect: missing_zero
        with tape:
            wp.launch(reprojection, dim=N_PTS, inputs=[self.pose, self.X, self.uv], outputs=[loss])
        tape.backward(loss)
        self.history.append((self.pose.numpy().astype(np.float64), self.pose.grad.numpy().astype(np.float64)))
        self.opt.step([self.pose.grad])
        return float(loss.numpy()[0])


def objective(pose):
    est = PoseEstimator(pose)
    loss = wp.zeros(1, dtype=float)
    wp.launch(reprojection, dim=N_PTS, inputs=[est.pose, est.X, est.uv], outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    est = PoseEstimator(POSE0)
    for _ in range(4):
        est.step()
    pose, ad = est.history[-1]
    fd = np.zeros(6)
    for k in range(6):
        pp, pm = pose.copy(), pose.copy()
        pp[k] += FD_EPS
        pm[k] -= FD_EPS
        fd[k] = (objective(pp) - objective(pm)) / (2 * FD_EPS)
    return ad, fd


if __name__ == "__main__":
    est = PoseEstimator(POSE0)
    for it in range(60):
        l = est.step()
        if it % 20 == 0:
            print(f"iter {it:2d} reprojection {l:.5f}")
    print("pose", est.pose.numpy().round(3))
