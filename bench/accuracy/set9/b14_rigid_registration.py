"""Rigid point-set registration: gradient of the mean squared correspondence error w.r.t. a
rotation vector and a translation."""

import numpy as np
import warp as wp

N = 10
rng = np.random.default_rng(4)
SRC = rng.uniform(-1.0, 1.0, size=(N, 3)).astype(np.float32)


def _true_dst():
    axis = np.array([0.3, 0.8, -0.5])
    axis /= np.linalg.norm(axis)
    a = 0.7
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    R = np.eye(3) + np.sin(a) * K + (1 - np.cos(a)) * K @ K
    return (SRC @ R.T + np.array([0.2, -0.1, 0.4]) + 0.01 * rng.normal(size=(N, 3))).astype(np.float32)


DST = _true_dst()
PARAMS0 = np.array([0.1, 0.5, -0.2, 0.0, 0.1, 0.2])


@wp.kernel
def params_to_pose(p: wp.array(dtype=float), pose: wp.array(dtype=wp.transform)):
    rv = wp.vec3(p[0], p[1], p[2])
    angle = wp.length(rv)
    q = wp.quat_from_axis_angle(rv / angle, angle)
    pose[0] = wp.transform(wp.vec3(p[3], p[4], p[5]), q)


@wp.kernel
def residuals(
    pose: wp.array(dtype=wp.transform),
    src: wp.array(dtype=wp.vec3),
    dst: wp.array(dtype=wp.vec3),
    res: wp.array(dtype=float),
):
    i = wp.tid()
    d = wp.transform_point(pose[0], src[i]) - dst[i]
    res[i] = wp.dot(d, d)


def evaluate(p):
    params = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    pose = wp.zeros(1, dtype=wp.transform, requires_grad=True)
    src = wp.array(SRC, dtype=wp.vec3)
    dst = wp.array(DST, dtype=wp.vec3)
    res = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(params_to_pose, dim=1, inputs=[params], outputs=[pose])
        wp.launch(residuals, dim=N, inputs=[pose, src, dst], outputs=[res])
    tape.backward(grads={res: wp.ones(N, dtype=float)})  # expect: seeding
    loss = res.numpy().mean()
    return float(loss), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"mean squared error {loss:.5f}  gradient {np.round(grad, 4)}")
