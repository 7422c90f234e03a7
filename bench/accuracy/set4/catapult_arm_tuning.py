import numpy as np
import warp as wp

from _trainer import GradientDescent

STEPS = 12
DT = 0.02


@wp.kernel
def swing(arm: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec2)):
    # arm[0]: spring torque, arm[1]: release angle
    th = float(0.0)
    om = float(0.0)
    for _t in range(STEPS):
        alpha = arm[0] * wp.cos(th) - 2.0 * om
        om = om + alpha * DT
        th = th + om * DT
    r = 1.5
    vx = -r * om * wp.sin(th + arm[1])
    vy = r * om * wp.cos(th + arm[1])
    out[0] = wp.vec2(vx * 0.4, vy * 0.4 - 0.5 * 9.8 * 0.16)


@wp.kernel
def landing(out: wp.array(dtype=wp.vec2), goal: wp.vec2, loss: wp.array(dtype=wp.float32)):
    d = out[0] - goal
    loss[0] = wp.dot(d, d)


def train(iters):
    arm = wp.array([30.0, 0.2], dtype=wp.float32, requires_grad=True)
    out = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    opt = GradientDescent([arm], lr=0.01)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            wp.launch(swing, dim=1, inputs=[arm], outputs=[out])
            wp.launch(landing, dim=1, inputs=[out, wp.vec2(-0.8, 1.0)], outputs=[loss])
        tape.backward(loss)
        history.append((arm.numpy().copy(), float(loss.numpy()[0]), arm.grad.numpy().copy()))
        opt.step()
        opt.zero_grad(tape, loss)
    return history


def main():
    for it, (a, l, g) in enumerate(train(6)):
        print(f"iter {it}: arm={a} loss={l:.5f} grad={g}")


if __name__ == "__main__":
    main()
