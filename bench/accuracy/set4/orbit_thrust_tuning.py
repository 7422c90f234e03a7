import numpy as np
import warp as wp

N = 4
STEPS = 6
DT = 0.1


@wp.kernel
def thrust_step(pos: wp.array(dtype=wp.vec2), vel: wp.array(dtype=wp.vec2), thrust: wp.array(dtype=wp.float32), pos_out: wp.array(dtype=wp.vec2), vel_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p = pos[i]
    r = wp.length(p)
    a = -p / (r * r * r) + thrust[0] * vel[i]
    v = vel[i] + a * DT
    vel_out[i] = v
    pos_out[i] = p + v * DT


@wp.kernel
def accumulate_radius(pos: wp.array(dtype=wp.vec2), total: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(total, 0, wp.length(pos[i]))


@wp.kernel
def radius_penalty(total: wp.array(dtype=wp.float32), goal: wp.float32, loss: wp.array(dtype=wp.float32)):
    d = total[0] / wp.float32(N) - goal
    loss[0] = d * d


class OrbitTuner:
    def __init__(self):
        ang = np.linspace(0.0, 2.0 * np.pi, N, endpoint=False)
        self.p0 = np.stack([np.cos(ang), np.sin(ang)], axis=1).astype(np.float32)
        self.v0 = np.stack([-np.sin(ang), np.cos(ang)], axis=1).astype(np.float32)
        self.thrust = wp.array([0.05], dtype=wp.float32, requires_grad=True)
        self.pos = [wp.array(self.p0, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)]
        self.vel = [wp.array(self.v0, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)]
        self.total = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def forward(self):
        for t in range(STEPS):
            wp.launch(thrust_step, dim=N, inputs=[self.pos[t], self.vel[t], self.thrust], outputs=[self.pos[t + 1], self.vel[t + 1]])
        wp.launch(accumulate_radius, dim=N, inputs=[self.pos[STEPS]], outputs=[self.total])  # expect: atomic_replay
        wp.launch(radius_penalty, dim=1, inputs=[self.total, 1.3], outputs=[self.loss])

    def step(self, lr):
        tape = wp.Tape()
        with tape:
            self.forward()
        tape.backward(self.loss)
        g = float(self.thrust.grad.numpy()[0])
        th = float(self.thrust.numpy()[0])
        tape.zero()
        self.thrust.assign([th - lr * g])
        return th, float(self.loss.numpy()[0]), g


def main():
    tuner = OrbitTuner()
    for it in range(6):
        th, l, g = tuner.step(0.5)
        print(f"iter {it}: thrust={th:.5f} loss={l:.6f} grad={g:.6f}")


if __name__ == "__main__":
    main()
