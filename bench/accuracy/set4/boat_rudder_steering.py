import numpy as np
import warp as wp

STEPS = 8
DT = 0.1


@wp.kernel
def boat_step(state: wp.array(dtype=wp.vec3), rudder: wp.array(dtype=wp.float32), t: wp.int32, out: wp.array(dtype=wp.vec3)):
    s = state[0]
    heading = s[2] + DT * 3.0 * wp.sin(rudder[t])
    out[0] = wp.vec3(s[0] + DT * wp.cos(heading), s[1] + DT * wp.sin(heading), heading)


@wp.kernel
def dock_error(state: wp.array(dtype=wp.vec3), goal: wp.vec2, loss: wp.array(dtype=wp.float32)):
    s = state[0]
    d = wp.vec2(s[0], s[1]) - goal
    loss[0] = wp.dot(d, d)


class Boat:
    def __init__(self):
        self.states = [wp.zeros(1, dtype=wp.vec3, requires_grad=True) for _ in range(STEPS + 1)]
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def plan_grad(self, rudder_np, goal):
        rudder = wp.array(rudder_np, dtype=wp.float32, requires_grad=True)
        self.states[0].zero_()
        tape = wp.Tape()
        with tape:
            for t in range(STEPS):
                wp.launch(boat_step, dim=1, inputs=[self.states[t], rudder, t], outputs=[self.states[t + 1]])
            wp.launch(dock_error, dim=1, inputs=[self.states[STEPS], goal], outputs=[self.loss])
        wp.copy(self.states[0], self.states[STEPS])  # expect: untaped_write
        tape.backward(self.loss)
        return float(self.loss.numpy()[0]), rudder.grad.numpy().copy()


def main():
    boat = Boat()
    rudder = np.zeros(STEPS, dtype=np.float32)
    goal = wp.vec2(0.6, 0.3)
    for it in range(6):
        l, g = boat.plan_grad(rudder, goal)
        print(f"iter {it}: loss={l:.6f} |grad|={np.abs(g).sum():.5f}")
        rudder = (rudder - 0.5 * g).astype(np.float32)


if __name__ == "__main__":
    main()
