# correct: per-channel white-balance gains written to a separate output image; accumulation uses += (atomic) only
import numpy as np
import warp as wp

H, W = 12, 16


@wp.kernel
def balance(img: wp.array3d(dtype=float), gains: wp.array(dtype=float), out: wp.array3d(dtype=float)):
    y, x, c = wp.tid()
    out[y, x, c] = img[y, x, c] * gains[c]


@wp.kernel
def channel_means(out: wp.array3d(dtype=float), means: wp.array(dtype=float)):
    y, x, c = wp.tid()
    means[c] += out[y, x, c] / float(out.shape[0] * out.shape[1])


@wp.kernel
def gray_world_loss(means: wp.array(dtype=float), loss: wp.array(dtype=float)):
    # gray-world assumption: all channel means equal 0.5; also keep highlights soft
    c = wp.tid()
    d = means[c] - 0.5
    wp.atomic_add(loss, 0, d * d + 0.01 * wp.log(1.0 + means[c] * means[c]))


rng = np.random.default_rng(17)
img_np = (rng.uniform(0.1, 0.9, (H, W, 3)) * np.array([1.2, 0.9, 0.6])).astype(np.float32)
img = wp.array(img_np, dtype=float)
gains = wp.array([0.8, 1.1, 1.3], dtype=float, requires_grad=True)
out = wp.zeros((H, W, 3), dtype=float, requires_grad=True)
means = wp.zeros(3, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(balance, dim=(H, W, 3), inputs=[img, gains], outputs=[out])
    wp.launch(channel_means, dim=(H, W, 3), inputs=[out], outputs=[means])
    wp.launch(gray_world_loss, dim=3, inputs=[means], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
gains_grad = gains.grad.numpy().copy()
print("loss", loss_value, "dgains", gains_grad)
