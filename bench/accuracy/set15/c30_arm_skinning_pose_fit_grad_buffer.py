# correct: b30_arm_skinning_pose_fit (the skinned vertex buffer is allocated with requires_grad=True; only the constant rest pose and weights lack it)
"""Fit the two joint angles of a skinned arm mesh to motion-capture marker positions.

A cylinder-like arm mesh (upper arm and forearm, 8 x 24 vertices) is deformed
by linear blend skinning with two bones rotating about z; the skinned vertex
positions are compared with the captured vertex targets. The rig's rest data
travels in a @wp.struct; the mesh buffers live in a SkinnedArm class (the
rest pose and the skinning weights are constants; the skinned buffer carries
gradients).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_RING = 8
N_SEG = 24
N_V = N_RING * N_SEG
UPPER = 0.30  # m
FORE = 0.27
PARAMS0 = np.array([0.45, 0.80])  # shoulder, elbow [rad]
FD_EPS = np.array([1e-3, 1e-3])


@wp.struct
class Rig:
    shoulder: wp.vec3
    elbow_rest: wp.vec3


@wp.func
def rot_z(a: float, p: wp.vec3):
    c = wp.cos(a)
    s = wp.sin(a)
    return wp.vec3(c * p[0] - s * p[1], s * p[0] + c * p[1], p[2])


@wp.kernel
def skin(rest: wp.array(dtype=wp.vec3), w_fore: wp.array(dtype=float), rig: Rig, ang: wp.array(dtype=float),
         out: wp.array(dtype=wp.vec3)):
    v = wp.tid()
    p = rest[v] - rig.shoulder
    # bone 1: shoulder rotation; bone 2: shoulder then elbow rotation about the rest elbow
    p1 = rot_z(ang[0], p)
    e = rig.elbow_rest - rig.shoulder
    p2 = rot_z(ang[0], e + rot_z(ang[1], p - e))
    w = w_fore[v]
    out[v] = rig.shoulder + (1.0 - w) * p1 + w * p2


@wp.kernel
def marker_error(pos: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    v = wp.tid()
    d = (pos[v] - target[v]) * 100.0
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_V))


def arm_mesh():
    x = np.linspace(0.0, UPPER + FORE, N_SEG)
    phi = np.linspace(0.0, 2 * np.pi, N_RING, endpoint=False)
    r = 0.045 - 0.015 * x / (UPPER + FORE)
    pts = np.array([[xi, ri * np.cos(f), ri * np.sin(f)] for xi, ri in zip(x, r) for f in phi], dtype=np.float32)
    w = 1.0 / (1.0 + np.exp(-(pts[:, 0] - UPPER) / 0.02))  # forearm weight, blended around the elbow
    return pts, w.astype(np.float32)


class SkinnedArm:
    def __init__(self):
        rest, w = arm_mesh()
        self.rest = wp.array(rest, dtype=wp.vec3)
        self.w_fore = wp.array(w, dtype=float)
        self.rig = Rig()
        self.rig.shoulder = wp.vec3(0.0, 0.0, 0.0)
        self.rig.elbow_rest = wp.vec3(UPPER, 0.0, 0.0)
        self.skinned = wp.zeros(N_V, dtype=wp.vec3, requires_grad=True)

    def pose(self, ang):
        wp.launch(skin, dim=N_V, inputs=[self.rest, self.w_fore, self.rig, ang], outputs=[self.skinned])
        return self.skinned


ARM = SkinnedArm()
TARGET = wp.clone(ARM.pose(wp.array([0.6, 1.1], dtype=float)))


def evaluate(p):
    ang = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        pos = ARM.pose(ang)
        wp.launch(marker_error, dim=N_V, inputs=[pos, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), ang.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mean squared marker error {L:.3f} cm^2; d/d(shoulder, elbow) = {g}")
