# correct: atomic_add accumulator read nonlinearly, but zeroed before every taped iteration
import numpy as np
import warp as wp

N = 6
STEPS = 5
DT = 0.1


@wp.kernel
def flock_step(pos: wp.array(dtype=wp.vec2), cohesion: wp.array(dtype=wp.float32), center: wp.vec2, pos_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    d = center - pos[i]
    pos_out[i] = pos[i] + DT * cohesion[0] * d * wp.length(d)


@wp.kernel
def accumulate_spread(pos: wp.array(dtype=wp.vec2), acc: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(acc, 0, wp.dot(pos[i], pos[i]))


@wp.kernel
def spread_loss(acc: wp.array(dtype=wp.float32), goal: wp.float32, loss: wp.array(dtype=wp.float32)):
    r = wp.sqrt(acc[0] / wp.float32(N)) - goal
    loss[0] = r * r


class Swarm:
    def __init__(self):
        ang = np.linspace(0.0, 2.0 * np.pi, N, endpoint=False)
        self.p0 = np.stack([1.5 * np.cos(ang), np.sin(ang)], axis=1).astype(np.float32)
        self.cohesion = wp.array([0.4], dtype=wp.float32, requires_grad=True)
        self.pos = [wp.array(self.p0, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)]
        self.acc = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def forward(self):
        self.acc.zero_()
        for t in range(STEPS):
            wp.launch(flock_step, dim=N, inputs=[self.pos[t], self.cohesion, wp.vec2(0.0, 0.0)], outputs=[self.pos[t + 1]])
        wp.launch(accumulate_spread, dim=N, inputs=[self.pos[STEPS]], outputs=[self.acc])
        wp.launch(spread_loss, dim=1, inputs=[self.acc, 0.8], outputs=[self.loss])

    def step(self, lr):
        tape = wp.Tape()
        with tape:
            self.forward()
        tape.backward(self.loss)
        c = float(self.cohesion.numpy()[0])
        g = float(self.cohesion.grad.numpy()[0])
        tape.zero()
        self.cohesion.assign([c - lr * g])
        return c, float(self.loss.numpy()[0]), g


def main():
    s = Swarm()
    for it in range(6):
        c, l, g = s.step(0.5)
        print(f"iter {it}: cohesion={c:.4f} loss={l:.6f} grad={g:.6f}")


if __name__ == "__main__":
    main()
