# correct: per-element loss seeded with 1/N to differentiate the mean
import numpy as np
import warp as wp

N = 10
STEPS = 8
DT = 0.05


@wp.kernel
def bounce(launch_speed: wp.array(dtype=wp.float32), angle: wp.array(dtype=wp.float32), height: wp.array(dtype=wp.float32)):
    i = wp.tid()
    v = wp.vec2(launch_speed[0] * wp.cos(angle[i]), launch_speed[0] * wp.sin(angle[i]))
    p = wp.vec2(0.0, 0.0)
    for _t in range(STEPS):
        v = v + wp.vec2(0.0, -9.8) * DT - 0.1 * v * DT
        p = p + v * DT
    height[i] = (p[1] - 0.5) * (p[1] - 0.5)


def mean_cost_grad(speed, angles_np):
    s = wp.array([speed], dtype=wp.float32, requires_grad=True)
    ang = wp.array(angles_np, dtype=wp.float32, requires_grad=True)
    cost = wp.zeros(N, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bounce, dim=N, inputs=[s, ang], outputs=[cost])
    tape.backward(grads={cost: wp.full(N, 1.0 / N, dtype=wp.float32)})
    return float(cost.numpy().mean()), float(s.grad.numpy()[0]), ang.grad.numpy().copy()


def main():
    angles = np.linspace(0.3, 1.2, N).astype(np.float32)
    speed = 4.0
    for it in range(6):
        c, gs, ga = mean_cost_grad(speed, angles)
        print(f"iter {it}: speed={speed:.4f} mean cost={c:.5f} grad={gs:.5f}")
        speed -= 0.5 * gs
        angles = (angles - 0.5 * ga).astype(np.float32)


if __name__ == "__main__":
    main()
