"""Emission-absorption ray marching through a blob density grid: fit the blob amplitudes to an image."""

import numpy as np
import warp as wp

from _volume import G, blobs_to_grid, image_loss, target_image

STEP = 0.5
EMISSION = 1.0
PARAMS0 = np.array([0.6, 0.9, 0.4])


@wp.kernel
def march(grid: wp.array3d(dtype=float), n_samples: int, step: float, emission: float, img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    T = float(1.0)
    c = float(0.0)
    for s in range(n_samples):  # expect: dynamic_loop
        alpha = 1.0 - wp.exp(-grid[i, j, s] * step)
        c += T * alpha * emission
        T = T * (1.0 - alpha)
    img[i, j] = c


def evaluate(p):
    amplitude = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    grid = wp.zeros((G, G, G), dtype=float, requires_grad=True)
    img = wp.zeros((G, G), dtype=float, requires_grad=True)
    target = wp.array(target_image(), dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(blobs_to_grid, dim=(G, G, G), inputs=[amplitude], outputs=[grid])
        wp.launch(march, dim=(G, G), inputs=[grid, G, STEP, EMISSION], outputs=[img])
        wp.launch(image_loss, dim=(G, G), inputs=[img, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amplitude.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"image loss {loss:.5f}  d/damplitude {np.round(grad, 5)}")
