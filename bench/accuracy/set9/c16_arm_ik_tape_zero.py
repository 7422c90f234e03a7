# correct: Adam IK loop that runs backward() first, then steps the optimizer, then clears the gradients with tape.zero()
"""Inverse kinematics of a planar three-link arm with warp.optim.Adam on the joint angles."""

import numpy as np
import warp as wp
import warp.optim



@wp.struct
class Joint:
    axis: wp.vec3
    offset: wp.vec3  # from this joint to the next one, in the joint frame


ARM = [((0.0, 0.0, 1.0), (0.5, 0.0, 0.0)), ((0.0, 0.0, 1.0), (0.4, 0.0, 0.0)), ((0.0, 0.0, 1.0), (0.3, 0.0, 0.0))]
TARGET = wp.vec3(0.35, 0.7, 0.0)
ANGLES0 = np.array([0.3, 0.4, 0.2], dtype=np.float32)


def make_joints():
    joints = []
    for axis, offset in ARM:
        j = Joint()
        j.axis = wp.vec3(*axis)
        j.offset = wp.vec3(*offset)
        joints.append(j)
    return wp.array(joints, dtype=Joint)


@wp.kernel
def forward_kinematics(joints: wp.array(dtype=Joint), angles: wp.array(dtype=float), frames: wp.array(dtype=wp.transform)):
    X = wp.transform_identity()
    for k in range(3):
        jt = joints[k]
        X = X * wp.transform(wp.vec3(0.0), wp.quat_from_axis_angle(jt.axis, angles[k]))
        frames[k] = X
        X = X * wp.transform(jt.offset, wp.quat_identity())
    frames[3] = X


@wp.kernel
def reach_loss(frames: wp.array(dtype=wp.transform), target: wp.vec3, loss: wp.array(dtype=float)):
    d = wp.transform_get_translation(frames[3]) - target
    loss[0] = wp.dot(d, d)


def objective(angles_np):
    frames = wp.zeros(4, dtype=wp.transform)
    loss = wp.zeros(1, dtype=float)
    wp.launch(forward_kinematics, dim=1, inputs=[make_joints(), wp.array(angles_np, dtype=float)], outputs=[frames])
    wp.launch(reach_loss, dim=1, inputs=[frames, TARGET], outputs=[loss])
    return float(loss.numpy()[0])


def solve(iters=50, lr=0.05, verbose=False):
    joints = make_joints()
    angles = wp.array(ANGLES0, dtype=float, requires_grad=True)
    frames = wp.zeros(4, dtype=wp.transform, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    opt = warp.optim.Adam([angles], lr=lr)
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            wp.launch(forward_kinematics, dim=1, inputs=[joints, angles], outputs=[frames])
            wp.launch(reach_loss, dim=1, inputs=[frames, TARGET], outputs=[loss])
        tape.backward(loss)
        opt.step([angles.grad])
        tape.zero()
        if verbose and it % 10 == 0:
            print(f"iter {it:3d}  distance^2 {loss.numpy()[0]:.6f}")
    return angles.numpy()


def verify(iters=4, eps=1e-3):
    """Gradient the optimizer consumed at its last step vs central differences at those angles."""
    seen = []
    step = warp.optim.Adam.step

    def spy(self, grad):
        seen.append((self.params[0].numpy().copy(), grad[0].numpy().copy()))
        return step(self, grad)

    warp.optim.Adam.step = spy
    try:
        solve(iters)
    finally:
        warp.optim.Adam.step = step
    p, ad = seen[-1]
    p = p.astype(np.float64)
    fd = np.zeros_like(p)
    for k in range(p.size):
        hi, lo = p.copy(), p.copy()
        hi[k] += eps
        lo[k] -= eps
        fd[k] = (objective(hi.astype(np.float32)) - objective(lo.astype(np.float32))) / (2 * eps)
    return ad, fd


if __name__ == "__main__":
    print("joint angles", np.round(solve(verbose=True), 4))
