import numpy as np
import warp as wp

from _rope import Rope

SETTLE = 4
STEPS = 10
GOAL = wp.vec3(0.55, -0.55, 0.1)


def loss_and_grad(wind_np):
    wind = wp.array([wind_np], dtype=wp.vec3, requires_grad=True)
    rope = Rope(SETTLE + STEPS)
    for t in range(SETTLE):
        rope.advance(wind, t)  # expect: truncation
    tape = wp.Tape()
    with tape:
        for t in range(SETTLE, SETTLE + STEPS):
            rope.advance(wind, t)
        rope.measure(GOAL)
    tape.backward(rope.loss)
    return float(rope.loss.numpy()[0]), wind.grad.numpy()[0].copy()


def main():
    w = np.array([0.5, 0.0, 0.5], dtype=np.float32)
    for it in range(5):
        l, g = loss_and_grad(w)
        print(f"iter {it}: wind={w} loss={l:.5f} grad={g}")
        w = (w - 0.5 * g).astype(np.float32)


if __name__ == "__main__":
    main()
