"""Non-blind deconvolution: recover a sharp image whose double box-blur matches the
observed photo. The separable blur reuses one scratch buffer for every pass."""
import numpy as np
import warp as wp

H = 16
W = 16


@wp.kernel
def blur_rows(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    l = src[i, wp.max(j - 1, 0)]
    r = src[i, wp.min(j + 1, W - 1)]
    dst[i, j] = 0.25 * l + 0.5 * src[i, j] + 0.25 * r


@wp.kernel
def blur_cols(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    u = src[wp.max(i - 1, 0), j]
    d = src[wp.min(i + 1, H - 1), j]
    dst[i, j] = 0.25 * u + 0.5 * src[i, j] + 0.25 * d


@wp.kernel
def charbonnier(pred: wp.array2d(dtype=float), observed: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = pred[i, j] - observed[i, j]
    wp.atomic_add(loss, 0, wp.sqrt(d * d + 1.0e-4))


@wp.kernel
def total_variation(img: wp.array2d(dtype=float), weight: float, loss: wp.array(dtype=float)):
    i, j = wp.tid()
    if i + 1 < H and j + 1 < W:
        dx = img[i, j + 1] - img[i, j]
        dy = img[i + 1, j] - img[i, j]
        wp.atomic_add(loss, 0, weight * wp.sqrt(dx * dx + dy * dy + 1.0e-3))


class Deconvolver:
    def __init__(self, passes=2):
        self.passes = passes
        self.scratch = wp.zeros((H, W), dtype=float, requires_grad=True)

    def blur(self, img):
        current = img
        for _ in range(self.passes):
            wp.launch(blur_rows, dim=(H, W), inputs=[current], outputs=[self.scratch])  # note: TW101
            blurred = wp.zeros((H, W), dtype=float, requires_grad=True)
            wp.launch(blur_cols, dim=(H, W), inputs=[self.scratch], outputs=[blurred])
            current = blurred
        return current

    def objective(self, latent, observed):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            pred = self.blur(latent)
            wp.launch(charbonnier, dim=(H, W), inputs=[pred, observed], outputs=[loss])
            wp.launch(total_variation, dim=(H, W), inputs=[latent, 0.05], outputs=[loss])
        tape.backward(loss)
        return tape, loss


def make_photo():
    yy, xx = np.mgrid[0:H, 0:W]
    sharp = ((xx > 5) & (xx < 11) & (yy > 4) & (yy < 12)).astype(np.float32)
    return sharp


if __name__ == "__main__":
    wp.init()
    solver = Deconvolver()
    sharp = make_photo()
    observed = solver.blur(wp.array(sharp))
    latent = wp.array(observed.numpy(), requires_grad=True)
    for it in range(10):
        tape, loss = solver.objective(latent, observed)
        g = latent.grad.numpy()
        if it % 3 == 0:
            print(f"iter {it}: loss={loss.numpy()[0]:.4f} error vs sharp={np.abs(latent.numpy() - sharp).mean():.4f}")
        latent.assign(latent.numpy() - 0.05 * g)
        tape.zero()
