"""Fit the pose (yaw and translation) of a depth sensor to an inverse-depth
image of a small point cloud; camera-space depth is clamped to the near plane
before the perspective divide."""
import numpy as np
import warp as wp

N = 40
NEAR = 0.1
FOCAL = 1.5


@wp.func
def view_point(pose: wp.array(dtype=float), p: wp.vec3):
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), pose[0])
    pc = wp.quat_rotate(q, p) + wp.vec3(pose[1], pose[2], pose[3])
    pc[2] = wp.max(pc[2], NEAR)  # expect: component_reassign
    return pc


@wp.kernel
def inverse_depth_residual(pose: wp.array(dtype=float), pts: wp.array(dtype=wp.vec3), obs: wp.array(dtype=wp.vec3),
                           loss: wp.array(dtype=float)):
    i = wp.tid()
    pc = view_point(pose, pts[i])
    r = wp.vec3(FOCAL * pc[0] / pc[2], FOCAL * pc[1] / pc[2], 1.0 / pc[2]) - obs[i]
    wp.atomic_add(loss, 0, wp.dot(r, r))


def observe(pose):
    c, s = np.cos(pose[0]), np.sin(pose[0])
    R = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    pc = PTS @ R.T + np.asarray(pose[1:])
    return np.stack([FOCAL * pc[:, 0] / pc[:, 2], FOCAL * pc[:, 1] / pc[:, 2], 1 / pc[:, 2]], 1).astype(np.float32)


PTS = np.random.default_rng(9).uniform(-0.5, 0.5, (N, 3)).astype(np.float32)
OBS = observe([0.2, 0.1, -0.05, 2.0])
PARAMS0 = [0.1, 0.0, 0.0, 2.2]


def evaluate(p):
    pose = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pts = wp.array(PTS, dtype=wp.vec3)
    obs = wp.array(OBS, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(inverse_depth_residual, dim=N, inputs=[pose, pts, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), pose.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(50):
        l, g = evaluate(p)
        p -= 0.01 * g
    print(f"residual {l:.3e} yaw {p[0]:.3f} t {p[1:].round(3)}")
