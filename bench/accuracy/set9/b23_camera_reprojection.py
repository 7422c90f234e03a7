"""Pinhole camera pose refinement: gradient of the reprojection error w.r.t. the camera position."""

import numpy as np
import warp as wp

NEAR = 0.05
FOCAL = 120.0
CENTER = wp.vec2(64.0, 48.0)
rng = np.random.default_rng(13)
POINTS = np.column_stack([rng.uniform(-1, 1, 8), rng.uniform(-0.6, 0.6, 8), rng.uniform(-3.5, -2.0, 8)]).astype(np.float32)
YAW = 0.15
PARAMS0 = np.array([0.1, -0.05, 0.3])


@wp.func
def project(cam: wp.transform, p_world: wp.vec3, focal: float, center: wp.vec2):
    p_cam = wp.transform_point(wp.transform_inverse(cam), p_world)
    pc = wp.vec3(p_cam[0], p_cam[1], -p_cam[2])  # camera looks down -z
    pc[2] = wp.max(pc[2], NEAR)  # expect: component_reassign
    return center + focal * wp.vec2(pc[0] / pc[2], -pc[1] / pc[2])


@wp.kernel
def make_camera(t: wp.array(dtype=wp.vec3), yaw: float, cam: wp.array(dtype=wp.transform)):
    cam[0] = wp.transform(t[0], wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), yaw))


@wp.kernel
def reprojection(
    cam: wp.array(dtype=wp.transform),
    points: wp.array(dtype=wp.vec3),
    observed: wp.array(dtype=wp.vec2),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    d = project(cam[0], points[i], FOCAL, CENTER) - observed[i]
    wp.atomic_add(loss, 0, 0.5 * wp.dot(d, d) / float(points.shape[0]))


@wp.kernel
def project_all(cam: wp.array(dtype=wp.transform), points: wp.array(dtype=wp.vec3), uv: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    uv[i] = project(cam[0], points[i], FOCAL, CENTER)


def observations():
    cam = wp.zeros(1, dtype=wp.transform)
    wp.launch(make_camera, dim=1, inputs=[wp.array([(0.0, 0.0, 0.0)], dtype=wp.vec3), YAW], outputs=[cam])
    uv = wp.zeros(len(POINTS), dtype=wp.vec2)
    wp.launch(project_all, dim=len(POINTS), inputs=[cam, wp.array(POINTS, dtype=wp.vec3)], outputs=[uv])
    return uv


def evaluate(p):
    t = wp.array([p.astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    cam = wp.zeros(1, dtype=wp.transform, requires_grad=True)
    points = wp.array(POINTS, dtype=wp.vec3)
    observed = observations()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(make_camera, dim=1, inputs=[t, YAW], outputs=[cam])
        wp.launch(reprojection, dim=len(POINTS), inputs=[cam, points, observed], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), t.grad.numpy()[0].astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"reprojection error {loss:.4f} px^2  d/dposition {np.round(grad, 3)}")
