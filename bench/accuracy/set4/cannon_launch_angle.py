import numpy as np
import warp as wp

STEPS = 15
DT = 0.04


@wp.kernel
def fly(
    aim: wp.array(dtype=wp.float32),
    speed: wp.float32,
    drag: wp.float32,
    pos: wp.array(dtype=wp.vec2),
):
    # single projectile integrated with quadratic drag
    th = aim[0]
    v = wp.vec2(speed * wp.cos(th), speed * wp.sin(th))
    p = wp.vec2(0.0, 0.0)
    for _t in range(STEPS):
        a = wp.vec2(0.0, -9.8) - drag * wp.length(v) * v
        v = v + a * DT
        p = p + v * DT
    pos[0] = p


@wp.kernel
def miss_distance(pos: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=wp.float32)):
    d = pos[0] - target
    loss[0] = wp.dot(d, d)


def train(iters, lr=0.02):
    aim = wp.array([0.6], dtype=wp.float32, requires_grad=True)
    pos = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    target = wp.vec2(3.0, 0.5)
    history = []
    for it in range(iters):
        tape = wp.Tape()  # expect: missing_zero
        with tape:
            wp.launch(fly, dim=1, inputs=[aim, 6.0, 0.05], outputs=[pos])
            wp.launch(miss_distance, dim=1, inputs=[pos, target], outputs=[loss])
        tape.backward(loss)
        g = float(aim.grad.numpy()[0])
        history.append((float(aim.numpy()[0]), float(loss.numpy()[0]), g))
        aim.assign([aim.numpy()[0] - lr * g])
    return history


def main():
    for it, (a, l, g) in enumerate(train(6)):
        print(f"iter {it}: aim={a:.4f} loss={l:.5f} grad={g:.5f}")


if __name__ == "__main__":
    main()
