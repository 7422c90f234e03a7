# correct: the list of gradient arrays handed to Adam is built once, before any backward, but it holds references to the live .grad arrays, not snapshots.
"""Stereo rig calibration: fit the baseline, convergence angle and focal length
of a two-camera rig to matched image points of a calibration target, with
warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

N = 30
FD_EPS = 1e-3


@wp.func
def project(p: wp.vec3, yaw: float, offset: float, focal: float):
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), yaw)
    pc = wp.quat_rotate(q, p - wp.vec3(offset, 0.0, 0.0))
    return wp.vec2(focal * pc[0] / pc[2], focal * pc[1] / pc[2])


@wp.kernel
def stereo_residual(rig: wp.array(dtype=float), X: wp.array(dtype=wp.vec3), uv_l: wp.array(dtype=wp.vec2),
                    uv_r: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    half = 0.5 * rig[0]
    rl = project(X[i], rig[1], -half, rig[2]) - uv_l[i]
    rr = project(X[i], -rig[1], half, rig[2]) - uv_r[i]
    wp.atomic_add(loss, 0, (wp.dot(rl, rl) + wp.dot(rr, rr)) / float(N))


def target_points():
    rng = np.random.default_rng(31)
    return (rng.uniform(-0.5, 0.5, (N, 3)) + np.array([0.0, 0.0, 3.0])).astype(np.float32)


def observe(rig):
    out = []
    for sgn in (-1.0, 1.0):
        yaw = -sgn * rig[1]
        c, s = np.cos(yaw), np.sin(yaw)
        R = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
        pc = (X_TARGET - np.array([sgn * 0.5 * rig[0], 0, 0])) @ R.T
        out.append((rig[2] * pc[:, :2] / pc[:, 2:3]).astype(np.float32))
    return out


X_TARGET = target_points()
UV_L, UV_R = observe([0.3, 0.05, 1.4])
RIG0 = np.array([0.25, 0.0, 1.2])


class RigCalibration:
    def __init__(self, rig0):
        self.X = wp.array(X_TARGET, dtype=wp.vec3)
        self.uv_l = wp.array(UV_L, dtype=wp.vec2)
        self.uv_r = wp.array(UV_R, dtype=wp.vec2)
        self.rig = wp.array(np.asarray(rig0, dtype=np.float32), dtype=float, requires_grad=True)
        self.opt = Adam([self.rig], lr=0.01)
        self.grads = [self.rig.grad]
        self.tape = wp.Tape()
        self.log = []

    def step(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with self.tape:
            wp.launch(stereo_residual, dim=N, inputs=[self.rig, self.X, self.uv_l, self.uv_r], outputs=[loss])
        self.tape.backward(loss)
        self.log.append((self.rig.numpy().astype(np.float64), self.grads[0].numpy().astype(np.float64)))
        self.opt.step(self.grads)
        self.tape.reset()
        return float(loss.numpy()[0])


def objective(rig):
    cal = RigCalibration(rig)
    loss = wp.zeros(1, dtype=float)
    wp.launch(stereo_residual, dim=N, inputs=[cal.rig, cal.X, cal.uv_l, cal.uv_r], outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    cal = RigCalibration(RIG0)
    for _ in range(4):
        cal.step()
    rig, ad = cal.log[-1]
    fd = np.zeros(3)
    for k in range(3):
        a, b = rig.copy(), rig.copy()
        a[k] += FD_EPS
        b[k] -= FD_EPS
        fd[k] = (objective(a) - objective(b)) / (2 * FD_EPS)
    return ad, fd


if __name__ == "__main__":
    cal = RigCalibration(RIG0)
    for it in range(80):
        l = cal.step()
    print(f"stereo residual {l:.3e} baseline {cal.rig.numpy()[0]:.3f} convergence {cal.rig.numpy()[1]:.3f} focal {cal.rig.numpy()[2]:.3f}")
