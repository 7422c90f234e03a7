import numpy as np
import warp as wp

W = 8
H = 6


@wp.kernel
def apply_tone(img: wp.array2d(dtype=wp.float32), gain: wp.array(dtype=wp.float32), gamma: wp.array(dtype=wp.float32), out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    out[i, j] = wp.pow(img[i, j] + 0.05, gamma[0])
    out[i, j] *= gain[i]  # expect: inplace_op


@wp.kernel
def photo_loss(out: wp.array2d(dtype=wp.float32), ref: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    d = out[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


def make_images():
    rng = np.random.default_rng(7)
    img = rng.uniform(0.0, 1.0, size=(H, W)).astype(np.float32)
    ref = (1.2 * (img + 0.05) ** 0.8).astype(np.float32)
    return img, ref


def fit_step(gain_np, gamma_np, img_np, ref_np):
    img = wp.array(img_np, dtype=wp.float32)
    ref = wp.array(ref_np, dtype=wp.float32)
    gain = wp.array(gain_np, dtype=wp.float32, requires_grad=True)
    gamma = wp.array(gamma_np, dtype=wp.float32, requires_grad=True)
    out = wp.zeros((H, W), dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(apply_tone, dim=(H, W), inputs=[img, gain, gamma], outputs=[out])
        wp.launch(photo_loss, dim=(H, W), inputs=[out, ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), gain.grad.numpy().copy(), gamma.grad.numpy().copy()


def main():
    img, ref = make_images()
    gain = np.ones(H, dtype=np.float32)
    gamma = np.array([1.0], dtype=np.float32)
    for it in range(8):
        l, gg, gm = fit_step(gain, gamma, img, ref)
        print(f"iter {it}: loss={l:.5f} gamma={gamma[0]:.4f} dgain[0]={gg[0]:.5f}")
        gain = (gain - 0.05 * gg).astype(np.float32)
        gamma = (gamma - 0.05 * gm).astype(np.float32)


if __name__ == "__main__":
    main()
