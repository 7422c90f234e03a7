import numpy as np
import warp as wp

from _camera import project

N = 10


@wp.kernel
def reprojection(points: wp.array(dtype=wp.vec3), pixels: wp.array(dtype=wp.vec2), intr: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    uv = project(points[i], intr[0], intr[1])
    d = uv - pixels[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def make_scene():
    rng = np.random.default_rng(11)
    pts = rng.uniform(-1.0, 1.0, size=(N, 3)).astype(np.float32)
    pts[:, 2] += 4.0
    f, k = 1.5, 0.1
    x = pts[:, 0] / pts[:, 2]
    y = pts[:, 1] / pts[:, 2]
    pix = np.stack([f * x + k * f * y, f * y], axis=1).astype(np.float32)
    return pts, pix


def calibrate_step(intr_np, pts_np, pix_np):
    points = wp.array(pts_np, dtype=wp.vec3)
    pixels = wp.array(pix_np, dtype=wp.vec2)
    intr = wp.array(intr_np, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(reprojection, dim=N, inputs=[points, pixels, intr], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), intr.grad.numpy().copy()


def main():
    pts, pix = make_scene()
    intr = np.array([1.0, 0.0], dtype=np.float32)
    for it in range(8):
        l, g = calibrate_step(intr, pts, pix)
        print(f"iter {it}: focal={intr[0]:.4f} skew={intr[1]:.4f} loss={l:.6f} grad={g}")
        intr = (intr - 2.0 * g).astype(np.float32)


if __name__ == "__main__":
    main()
