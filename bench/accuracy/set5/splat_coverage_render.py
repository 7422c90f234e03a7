"""Optimize 2-D Gaussian splat centers so the normalized splat image matches a target; some pixels see no splat."""
import numpy as np
import warp as wp

NS = wp.constant(3)
W = 12


@wp.kernel
def render(centers: wp.array(dtype=wp.vec2), colors: wp.array(dtype=wp.float32), image: wp.array2d(dtype=wp.float32)):
    px, py = wp.tid()
    p = wp.vec2(wp.float32(px), wp.float32(py))
    wsum = wp.float32(0.0)
    csum = wp.float32(0.0)
    for s in range(NS):
        d = p - centers[s]
        r2 = wp.dot(d, d)
        inside = wp.where(r2 < 9.0, 1.0, 0.0)
        w = inside * (9.0 - r2) * (9.0 - r2)
        wsum += w
        csum += w * colors[s]
    image[px, py] = wp.where(wsum > 0.0, csum / wsum, 0.0)  # expect: nonfinite


@wp.kernel
def image_loss(image: wp.array2d(dtype=wp.float32), target: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    px, py = wp.tid()
    d = image[px, py] - target[px, py]
    wp.atomic_add(loss, 0, d * d)


COLORS = np.array([0.2, 0.9, 0.5], dtype=np.float32)


def target_image():
    t = np.zeros((W, W), dtype=np.float32)
    t[2:7, 2:7] = 0.2
    t[5:10, 6:11] = 0.9
    return wp.array(t, dtype=wp.float32)


def image_error(centers, target):
    image = wp.zeros((W, W), dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(render, dim=(W, W), inputs=[centers, wp.array(COLORS, dtype=wp.float32)], outputs=[image])
    wp.launch(image_loss, dim=(W, W), inputs=[image, target], outputs=[loss])
    return loss


def optimize(iters=30, lr=0.05):
    target = target_image()
    centers = wp.array(np.array([[3.3, 4.1], [7.2, 7.7], [5.1, 2.6]], dtype=np.float32), dtype=wp.vec2, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = image_error(centers, target)
        tape.backward(loss)
        g = centers.grad.numpy().copy()
        history.append((centers.numpy().copy(), g))
        centers.assign(centers.numpy() - lr * g)
        tape.zero()
    print("centers", centers.numpy())
    return history


if __name__ == "__main__":
    optimize()
