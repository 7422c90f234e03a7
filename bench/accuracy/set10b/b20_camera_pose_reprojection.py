"""Camera pose from 2-D/3-D correspondences (perspective-n-point by gradient
descent): quaternion + translation minimise the reprojection error of known
landmarks.  A near-plane guard keeps points behind the camera from exploding.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LM = 12
FOCAL = 1.2
NEAR = 0.05


@wp.func
def project(pc: wp.vec3, focal: float):
    pc[2] = wp.max(pc[2], NEAR)  # expect: component_reassign
    return wp.vec2(focal * pc[0] / pc[2], focal * pc[1] / pc[2])


@wp.kernel
def reprojection(landmarks: wp.array(dtype=wp.vec3), pixels: wp.array(dtype=wp.vec2), q_raw: wp.array(dtype=wp.quat),
                 t: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.normalize(q_raw[0])
    pc = wp.quat_rotate(q, landmarks[i]) + t[0]
    e = project(pc, FOCAL) - pixels[i]
    wp.atomic_add(loss, 0, wp.dot(e, e))


def scene(seed=2):
    rng = np.random.default_rng(seed)
    lm = rng.uniform([-1, -1, -0.5], [1, 1, 0.5], (N_LM, 3)).astype(np.float32)
    q = wp.quat_from_axis_angle(wp.normalize(wp.vec3(0.2, 1.0, 0.1)), 0.3)
    t = wp.vec3(0.1, -0.2, 4.0)
    pix = []
    for p in lm:
        pc = np.array(wp.quat_rotate(q, wp.vec3(*p))) + np.array(t)
        pix.append(FOCAL * pc[:2] / pc[2])
    return wp.array(lm, dtype=wp.vec3), wp.array(np.array(pix, np.float32), dtype=wp.vec2)


LANDMARKS, PIXELS = scene()
PARAMS0 = np.array([0.0, 0.1, 0.0, 1.0, 0.0, 0.0, 3.5])


def evaluate(p):
    p = np.asarray(p, np.float32)
    q = wp.array([wp.quat(*p[:4])], dtype=wp.quat, requires_grad=True)
    t = wp.array([wp.vec3(*p[4:])], dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(reprojection, dim=N_LM, inputs=[LANDMARKS, PIXELS, q, t], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([q.grad.numpy().ravel(), t.grad.numpy().ravel()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        loss, g = evaluate(p)
        p -= 0.05 * g
        if it % 50 == 0:
            print(f"iter {it:3d} reprojection error {loss:.6f} t {np.round(p[4:], 3)}")
