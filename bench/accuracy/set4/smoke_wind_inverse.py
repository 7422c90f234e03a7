import numpy as np
import warp as wp

from _fluid_ops import advect

NX = 12
NY = 12
STEPS = 4


@wp.kernel
def density_loss(q: wp.array2d(dtype=wp.float32), target: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    d = q[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


def blob(cx, cy):
    yy, xx = np.meshgrid(np.arange(NY), np.arange(NX))
    return np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 4.0).astype(np.float32)


def wind_grad(wind_np):
    wind = wp.array([wind_np], dtype=wp.vec2, requires_grad=True)
    qs = [wp.array(blob(4.0, 4.0), dtype=wp.float32, requires_grad=True)]
    qs += [wp.zeros((NX, NY), dtype=wp.float32, requires_grad=True) for _ in range(STEPS)]
    target = wp.array(blob(6.0, 5.0), dtype=wp.float32)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            wp.launch(advect, dim=(NX, NY), inputs=[qs[t], wind, 1.0], outputs=[qs[t + 1]])
        wp.launch(density_loss, dim=(NX, NY), inputs=[qs[STEPS], target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), wind.grad.numpy()[0].copy()


def main():
    w = np.array([0.3, 0.1], dtype=np.float32)
    for it in range(6):
        l, g = wind_grad(w)
        print(f"iter {it}: wind={w} loss={l:.5f} grad={g}")
        w = (w - 0.02 * g).astype(np.float32)


if __name__ == "__main__":
    main()
