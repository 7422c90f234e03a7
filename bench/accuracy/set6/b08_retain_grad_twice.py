"""Fit a 1-D Gaussian-splat intensity profile; the rendered image keeps its gradient for inspection."""
import numpy as np
import warp as wp

PIX = 64
BLOBS = 3


@wp.kernel
def splat(centers: wp.array(dtype=float), widths: wp.array(dtype=float), image: wp.array(dtype=float)):
    p = wp.tid()
    u = float(p) / float(PIX)
    acc = float(0.0)
    for b in range(BLOBS):
        d = (u - centers[b]) / widths[b]
        acc += wp.exp(-0.5 * d * d)
    image[p] = acc


@wp.kernel
def l2(image: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    p = wp.tid()
    r = image[p] - ref[p]
    wp.atomic_add(loss, 0, r * r)


class Renderer:
    def __init__(self):
        self.image = wp.zeros(PIX, dtype=float, requires_grad=True, retain_grad=True)

    def render(self, centers, widths):
        wp.launch(splat, dim=PIX, inputs=[centers, widths], outputs=[self.image])
        return self.image


def main():
    u = np.arange(PIX) / PIX
    ref_np = sum(np.exp(-0.5 * ((u - c) / 0.05) ** 2) for c in (0.2, 0.5, 0.75))
    ref = wp.array(ref_np.astype(np.float32))
    centers = wp.array([0.25, 0.45, 0.8], dtype=float, requires_grad=True)
    widths = wp.array([0.06, 0.05, 0.04], dtype=float, requires_grad=True)
    renderer = Renderer()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        preview = renderer.render(centers, widths)
        print("peak intensity", preview.numpy().max())
        image = renderer.render(centers, widths)  # expect: retain_grad
        wp.launch(l2, dim=PIX, inputs=[image, ref], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0])
    print("dL/dcenters", centers.grad.numpy(), "image grad norm", np.linalg.norm(renderer.image.grad.numpy()))
    return centers.grad.numpy()


if __name__ == "__main__":
    main()
