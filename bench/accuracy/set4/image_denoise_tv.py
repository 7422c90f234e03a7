import numpy as np
import warp as wp

H = 6
W = 6
ITERS = 3


@wp.kernel
def smooth_tv_step(u: wp.array2d(dtype=wp.float32), noisy: wp.array2d(dtype=wp.float32), lam: wp.array(dtype=wp.float32), u_out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    c = u[i, j]
    gx = u[wp.min(i + 1, H - 1), j] - c
    gy = u[i, wp.min(j + 1, W - 1)] - c
    mag = wp.sqrt(gx * gx + gy * gy + 0.01)
    u_out[i, j] = c - 0.1 * (lam[0] * (c - noisy[i, j]) - (gx + gy) / mag)


@wp.kernel
def blend(tmp: wp.array(dtype=wp.float32), w: wp.float32, u_flat: wp.array(dtype=wp.float32)):
    k = wp.tid()
    u_flat[k] = w * tmp[k]


@wp.kernel
def image_loss(u: wp.array2d(dtype=wp.float32), clean: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    d = u[i, j] - clean[i, j]
    wp.atomic_add(loss, 0, d * d)


def images():
    yy, xx = np.meshgrid(np.arange(W), np.arange(H))
    clean = (xx > 2).astype(np.float32)
    rng = np.random.default_rng(4)
    noisy = (clean + 0.2 * rng.standard_normal((H, W))).astype(np.float32)
    return clean, noisy


def denoise_grad(lam_value, clean_np, noisy_np):
    lam = wp.array([lam_value], dtype=wp.float32, requires_grad=True)
    noisy = wp.array(noisy_np, dtype=wp.float32)
    clean = wp.array(clean_np, dtype=wp.float32)
    u = wp.array(noisy_np, dtype=wp.float32, requires_grad=True)
    u_flat = u.reshape(H * W)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(ITERS):
            tmp = wp.zeros((H, W), dtype=wp.float32, requires_grad=True)
            wp.launch(smooth_tv_step, dim=(H, W), inputs=[u, noisy, lam], outputs=[tmp])
            wp.launch(blend, dim=H * W, inputs=[tmp.reshape(H * W), 1.0], outputs=[u_flat])  # expect: overwrite
        wp.launch(image_loss, dim=(H, W), inputs=[u, clean], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(lam.grad.numpy()[0])


def main():
    clean, noisy = images()
    lam = 1.0
    for it in range(5):
        l, g = denoise_grad(lam, clean, noisy)
        print(f"iter {it}: lambda={lam:.4f} loss={l:.5f} grad={g:.5f}")
        lam -= 0.5 * g


if __name__ == "__main__":
    main()
