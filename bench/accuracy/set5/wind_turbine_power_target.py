"""Pitch the blades of a small wind farm so total power tracks a grid set-point."""
import numpy as np
import warp as wp

NT = 4


@wp.kernel
def turbine_power(pitch: wp.array(dtype=wp.float32), wind: wp.array(dtype=wp.float32), total: wp.array(dtype=wp.float32)):
    i = wp.tid()
    cp = 0.45 * wp.cos(pitch[i]) * wp.exp(-0.5 * pitch[i] * pitch[i])
    wp.atomic_add(total, 0, cp * wind[i] * wind[i] * wind[i] * 0.01)


@wp.kernel
def setpoint_cost(total: wp.array(dtype=wp.float32), setpoint: wp.float32, loss: wp.array(dtype=wp.float32)):
    d = total[0] - setpoint
    loss[0] = d * d


class Farm:
    def __init__(self):
        self.wind = wp.array(np.array([8.0, 9.5, 7.0, 10.0], dtype=np.float32), dtype=wp.float32)
        self.total = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def cost(self, pitch, setpoint=6.0):
        self.loss.zero_()  # expect: atomic_replay
        wp.launch(turbine_power, dim=NT, inputs=[pitch, self.wind], outputs=[self.total])
        wp.launch(setpoint_cost, dim=1, inputs=[self.total, setpoint], outputs=[self.loss])
        return self.loss


def control(iters=30, lr=0.05):
    farm = Farm()
    pitch = wp.array(np.array([0.1, 0.2, 0.05, 0.3], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = farm.cost(pitch)
        tape.backward(loss)
        g = pitch.grad.numpy().copy()
        history.append((pitch.numpy().copy(), g))
        pitch.assign(pitch.numpy() - lr * g)
        tape.zero()
    print("pitch", pitch.numpy(), "power", farm.total.numpy()[0])
    return history


if __name__ == "__main__":
    control()
