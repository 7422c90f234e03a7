"""Track two Gaussian blobs across a pair of frames by matching blurred renderings (coarse-to-fine style)."""

import numpy as np
import warp as wp

H = 32
W = 32


@wp.kernel
def render_blob(center: wp.array(dtype=wp.vec2), sigma: float, image: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = wp.vec2(float(i), float(j)) - center[0]
    image[i, j] = wp.exp(-wp.dot(d, d) / (2.0 * sigma * sigma))


@wp.kernel
def blur_rows(src: wp.array2d(dtype=float), weights: wp.array(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for k in range(5):
        jj = wp.clamp(j + k - 2, 0, W - 1)
        acc += weights[k] * src[i, jj]
    dst[i, j] = acc


@wp.kernel
def blur_cols(src: wp.array2d(dtype=float), weights: wp.array(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for k in range(5):
        ii = wp.clamp(i + k - 2, 0, H - 1)
        acc += weights[k] * src[ii, j]
    dst[i, j] = acc


@wp.kernel
def photometric_error(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = a[i, j] - b[i, j]
    wp.atomic_add(loss, 0, d * d)


class SeparableBlur:
    def __init__(self):
        self.weights = wp.array(np.array([1, 4, 6, 4, 1], dtype=np.float32) / 16.0, dtype=float)
        self.scratch = wp.zeros((H, W), dtype=float, requires_grad=True)

    def __call__(self, src, dst):
        wp.launch(blur_rows, dim=(H, W), inputs=[src, self.weights], outputs=[self.scratch])  # note: TW101
        wp.launch(blur_cols, dim=(H, W), inputs=[self.scratch, self.weights], outputs=[dst])


def observed_frames(blur):
    frames = []
    for c in ([12.3, 17.8], [20.6, 9.4]):
        img = wp.zeros((H, W), dtype=float)
        wp.launch(render_blob, dim=(H, W), inputs=[wp.array([c], dtype=wp.vec2), 3.0], outputs=[img])
        out = wp.zeros((H, W), dtype=float)
        blur(img, out)
        frames.append(out)
    return frames


def tracking_loss(blur, centers, frames, loss):
    for c, frame in zip(centers, frames):
        img = wp.zeros((H, W), dtype=float, requires_grad=True)
        wp.launch(render_blob, dim=(H, W), inputs=[c, 3.0], outputs=[img])
        blurred = wp.zeros((H, W), dtype=float, requires_grad=True)
        blur(img, blurred)
        wp.launch(photometric_error, dim=(H, W), inputs=[blurred, frame], outputs=[loss])


def main():
    blur = SeparableBlur()
    frames = observed_frames(blur)
    centers = [
        wp.array([[14.0, 16.0]], dtype=wp.vec2, requires_grad=True),
        wp.array([[19.0, 11.0]], dtype=wp.vec2, requires_grad=True),
    ]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    lr = 0.15
    for it in range(40):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            tracking_loss(blur, centers, frames, loss)
        tape.backward(loss)
        for c in centers:
            c.assign(c.numpy() - lr * c.grad.numpy())
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} centers {[np.round(c.numpy()[0], 3).tolist() for c in centers]}")
        tape.zero()

    print("tracked centers", [np.round(c.numpy()[0], 3).tolist() for c in centers])


if __name__ == "__main__":
    main()
