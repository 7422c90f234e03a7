"""Fit a camera's tone curve (a 16-entry lookup table) and its exposure to paired raw/processed pixels."""

import numpy as np
import warp as wp

TABLE_SIZE = 16


@wp.func
def sample_curve(table: wp.array(dtype=float), x: float):
    s = wp.clamp(x, 0.0, 0.999) * float(TABLE_SIZE - 1)
    cell = wp.floor(s)
    t = s - cell
    k = int(cell)
    return table[k] * (1.0 - t) + table[k + 1] * t


@wp.kernel
def apply_tone_curve(
    raw: wp.array2d(dtype=float),
    exposure: wp.array(dtype=float),
    table: wp.array(dtype=float),
    processed: wp.array2d(dtype=float),
    loss: wp.array(dtype=float),
):
    i, j = wp.tid()
    y = sample_curve(table, exposure[0] * raw[i, j])
    d = y - processed[i, j]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def to_8bit(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    dst[i, j] = wp.round(wp.clamp(src[i, j], 0.0, 1.0) * 255.0) / 255.0


def training_pair(h=24, w=32, seed=6):
    rng = np.random.default_rng(seed)
    raw = rng.uniform(0.0, 0.8, (h, w)).astype(np.float32)
    processed = (np.clip(1.15 * raw, 0.0, 1.0) ** (1.0 / 2.2)).astype(np.float32)
    return raw, processed


def main():
    raw_np, processed_np = training_pair()
    raw = wp.array(raw_np, dtype=float)
    processed_float = wp.array(processed_np, dtype=float)
    processed = wp.zeros_like(processed_float)
    wp.launch(to_8bit, dim=processed.shape, inputs=[processed_float], outputs=[processed])

    table = wp.array(np.linspace(0.0, 1.0, TABLE_SIZE).astype(np.float32), dtype=float, requires_grad=True)
    exposure = wp.array([1.0], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 2e-3
    for it in range(60):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(apply_tone_curve, dim=raw.shape, inputs=[raw, exposure, table, processed], outputs=[loss])
        tape.backward(loss)
        table.assign(table.numpy() - lr * table.grad.numpy())
        exposure.assign(exposure.numpy() - 0.1 * lr * exposure.grad.numpy())
        if it % 15 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} exposure {exposure.numpy()[0]:.4f}")
        tape.zero()

    print("tone curve", np.round(table.numpy(), 3))


if __name__ == "__main__":
    main()
