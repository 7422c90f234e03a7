"""Camera calibration from a checkerboard: fit the board's yaw, pitch and distance
and the focal length so that the projected corners match the detected ones."""
import numpy as np
import warp as wp

NX, NY = 6, 5


@wp.kernel
def build_view(params: wp.array(dtype=float), view: wp.array(dtype=wp.mat44)):
    cy = wp.cos(params[0])
    sy = wp.sin(params[0])
    cp = wp.cos(params[1])
    sp = wp.sin(params[1])
    ry = wp.mat44(cy, 0.0, sy, 0.0, 0.0, 1.0, 0.0, 0.0, -sy, 0.0, cy, 0.0, 0.0, 0.0, 0.0, 1.0)
    rx = wp.mat44(1.0, 0.0, 0.0, 0.0, 0.0, cp, -sp, 0.0, 0.0, sp, cp, 0.0, 0.0, 0.0, 0.0, 1.0)
    tr = wp.mat44(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, params[2], 0.0, 0.0, 0.0, 1.0)
    view[0] = tr * rx * ry


@wp.kernel
def corner_residual(view: wp.array(dtype=wp.mat44), params: wp.array(dtype=float), corners: wp.array(dtype=wp.vec3),
                    detected: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    pc = wp.transform_point(view[0], corners[i])
    f = params[3]
    r = wp.vec2(f * pc[0] / pc[2], f * pc[1] / pc[2]) - detected[i]
    wp.atomic_add(loss, 0, wp.dot(r, r))


def board():
    xs, ys = np.meshgrid(np.arange(NX) - (NX - 1) / 2, np.arange(NY) - (NY - 1) / 2)
    return (0.1 * np.stack([xs.ravel(), ys.ravel(), np.zeros(NX * NY)], 1)).astype(np.float32)


def project_np(p, X):
    cy, sy, cp, sp = np.cos(p[0]), np.sin(p[0]), np.cos(p[1]), np.sin(p[1])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rx = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    pc = X @ (rx @ ry).T + np.array([0, 0, p[2]])
    return (p[3] * pc[:, :2] / pc[:, 2:3]).astype(np.float32)


CORNERS = board()
DETECTED = project_np([0.3, -0.2, 1.5, 2.0], CORNERS)
PARAMS0 = [0.2, -0.1, 1.6, 1.8]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    view = wp.zeros(1, dtype=wp.mat44, requires_grad=True)
    corners = wp.array(CORNERS, dtype=wp.vec3)
    detected = wp.array(DETECTED, dtype=wp.vec2)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(build_view, dim=1, inputs=[params], outputs=[view], record_tape=False)  # expect: truncation
        wp.launch(corner_residual, dim=NX * NY, inputs=[view, params, corners, detected], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"corner error {l:.3e} yaw {p[0]:.3f} pitch {p[1]:.3f} distance {p[2]:.3f} focal {p[3]:.3f}")
