# correct: ping-pong-looking state swap, but every step writes a fresh state array
import numpy as np
import warp as wp

N = 5
STEPS = 8
DT = 0.03


@wp.kernel
def swing_step(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    k: wp.array(dtype=wp.float32),
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    f = wp.vec3(0.0, -9.8, 0.0)
    if i > 0:
        d = x[i] - x[i - 1]
        l = wp.length(d)
        f = f - k[0] * (l - 0.25) * d / l
    if i < N - 1:
        d = x[i] - x[i + 1]
        l = wp.length(d)
        f = f - k[0] * (l - 0.25) * d / l
    vn = v[i] + f * DT
    if i == 0:
        vn = wp.vec3(0.0, 0.0, 0.0)
    v_out[i] = vn
    x_out[i] = x[i] + vn * DT


@wp.kernel
def tip_target(x: wp.array(dtype=wp.vec3), goal: wp.vec3, loss: wp.array(dtype=wp.float32)):
    d = x[N - 1] - goal
    loss[0] = wp.dot(d, d)


class RopeSim:
    def __init__(self):
        x0 = np.zeros((N, 3), dtype=np.float32)
        x0[:, 0] = np.arange(N) * 0.3
        x0[:, 2] = np.arange(N) * 0.05
        self.x0 = x0
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def rollout(self, k):
        src_x = wp.array(self.x0, dtype=wp.vec3, requires_grad=True)
        src_v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
        for _ in range(STEPS):
            dst_x = wp.empty_like(src_x)
            dst_v = wp.empty_like(src_v)
            wp.launch(swing_step, dim=N, inputs=[src_x, src_v, k], outputs=[dst_x, dst_v])
            src_x, dst_x = dst_x, src_x
            src_v, dst_v = dst_v, src_v
        wp.launch(tip_target, dim=1, inputs=[src_x, wp.vec3(1.0, -0.5, 0.2)], outputs=[self.loss])


def loss_and_grad(sim, stiffness):
    k = wp.array([stiffness], dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        sim.rollout(k)
    tape.backward(sim.loss)
    return float(sim.loss.numpy()[0]), float(k.grad.numpy()[0])


def main():
    sim = RopeSim()
    k = 30.0
    for it in range(5):
        l, g = loss_and_grad(sim, k)
        print(f"iter {it}: k={k:.4f} loss={l:.6f} grad={g:.6f}")
        k -= 100.0 * g


if __name__ == "__main__":
    main()
