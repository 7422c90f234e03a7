# correct: the camera-space point is clamped to the near plane, but into a new local (z = wp.max(pc[2], NEAR)) and a new vector, not by reassigning pc[2].
"""Face-landmark style camera fitting: fit the translation and focal length of a
pinhole camera so that projected 3D landmarks match 2D detections; points
are clamped to the near plane before the divide."""
import numpy as np
import warp as wp

N = 20
NEAR = 0.05


@wp.func
def to_image(pc: wp.vec3, focal: float):
    z = wp.max(pc[2], NEAR)
    clamped = wp.vec3(pc[0], pc[1], z)
    return wp.vec2(focal * clamped[0] / clamped[2], focal * clamped[1] / clamped[2])


@wp.kernel
def landmark_residual(cam: wp.array(dtype=float), X: wp.array(dtype=wp.vec3), uv: wp.array(dtype=wp.vec2),
                      loss: wp.array(dtype=float)):
    i = wp.tid()
    pc = X[i] + wp.vec3(cam[0], cam[1], cam[2])
    r = to_image(pc, cam[3]) - uv[i]
    wp.atomic_add(loss, 0, wp.dot(r, r))


LANDMARKS = (np.random.default_rng(41).uniform(-1, 1, (N, 3)) * np.array([0.4, 0.5, 0.2])).astype(np.float32)


def observe(cam):
    pc = LANDMARKS + np.asarray(cam[:3])
    return (cam[3] * pc[:, :2] / pc[:, 2:3]).astype(np.float32)


UV = observe([0.05, -0.1, 2.5, 1.8])
PARAMS0 = [0.0, 0.0, 2.2, 1.5]


def evaluate(p):
    cam = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(landmark_residual, dim=N, inputs=[cam, wp.array(LANDMARKS, dtype=wp.vec3), wp.array(UV, dtype=wp.vec2)],
                  outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), cam.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(100):
        l, g = evaluate(p)
        p -= 0.1 * g
    print(f"landmark residual {l:.3e} t {p[:3].round(3)} focal {p[3]:.3f}")
