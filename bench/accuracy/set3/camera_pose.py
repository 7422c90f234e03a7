"""Refine a camera translation so projected landmarks match their detected pixel positions."""
import numpy as np
import warp as wp

FOCAL = 500.0
NEAR = 0.05


@wp.func
def to_camera(p_world: wp.vec3, R: wp.mat33, t: wp.vec3):
    return R * p_world + t


@wp.func
def project(pc: wp.vec3, focal: float, near: float):
    pc.z = wp.max(pc.z, near)  # expect: component_reassign
    return wp.vec2(focal * pc.x / pc.z, focal * pc.y / pc.z)


@wp.kernel
def reprojection(
    landmarks: wp.array(dtype=wp.vec3),
    detections: wp.array(dtype=wp.vec2),
    R: wp.mat33,
    t: wp.array(dtype=wp.vec3),
    focal: float,
    near: float,
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    pc = to_camera(landmarks[i], R, t[0])
    uv = project(pc, focal, near)
    r = (uv - detections[i]) / focal
    wp.atomic_add(loss, 0, wp.dot(r, r))


rng = np.random.default_rng(23)
n = 20
landmarks_np = np.concatenate([rng.uniform(-1, 1, (n, 2)), rng.uniform(3, 6, (n, 1))], axis=1).astype(np.float32)
ang = 0.05
R_np = np.array([[np.cos(ang), 0, np.sin(ang)], [0, 1, 0], [-np.sin(ang), 0, np.cos(ang)]], dtype=np.float32)
t_true = np.array([0.1, -0.05, 0.3])
pc_true = landmarks_np @ R_np.T + t_true
det_np = (FOCAL * pc_true[:, :2] / pc_true[:, 2:3] + rng.normal(0, 0.5, (n, 2))).astype(np.float32)

landmarks = wp.array(landmarks_np, dtype=wp.vec3)
detections = wp.array(det_np, dtype=wp.vec2)
R = wp.mat33(R_np)
t = wp.array([wp.vec3(0.0, 0.0, 0.0)], dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(reprojection, dim=n, inputs=[landmarks, detections, R, t, FOCAL, NEAR], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
t_grad = t.grad.numpy()[0].copy()
print("reprojection loss", loss_value, "d/dt", t_grad)
