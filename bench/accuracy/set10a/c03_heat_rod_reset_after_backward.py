# correct: the simulator's history buffers are reset between recording and the next episode, but only after tape.backward()
"""Heater scheduling for a 1-D rod: choose the power of three heaters so the
temperature profile after a warm-up matches a recipe. Nonlinear
(temperature-dependent) conductivity, optimised with warp.optim.Adam.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

CELLS = 20
STEPS = 40
R = 0.3  # dt * k0 / dx^2


@wp.kernel
def heat_step(T: wp.array(dtype=float), power: wp.array(dtype=float), heater_cell: wp.array(dtype=wp.int32),
              T_out: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0 or i == CELLS - 1:
        T_out[i] = 0.0
        return
    kl = 1.0 + 0.5 * (T[i - 1] + T[i]) * 0.3
    kr = 1.0 + 0.5 * (T[i + 1] + T[i]) * 0.3
    src = float(0.0)
    for h in range(3):
        if heater_cell[h] == i:
            src = src + power[h]
    T_out[i] = T[i] + R * (kl * (T[i - 1] - T[i]) + kr * (T[i + 1] - T[i])) / 1.6 + 0.05 * src


@wp.kernel
def recipe_loss(T: wp.array(dtype=float), recipe: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = T[i] - recipe[i]
    wp.atomic_add(loss, 0, d * d)


class Rod:
    def __init__(self):
        self.history = [wp.zeros(CELLS, dtype=float, requires_grad=True) for _ in range(STEPS + 1)]
        self.heater_cell = wp.array([4, 10, 15], dtype=wp.int32)
        xs = np.linspace(0, 1, CELLS)
        self.recipe = wp.array((1.2 * np.sin(np.pi * xs)).astype(np.float32), dtype=float)

    def reset(self):
        for T in self.history:
            T.zero_()

    def record(self, power, loss):
        for s in range(STEPS):
            wp.launch(heat_step, dim=CELLS, inputs=[self.history[s], power, self.heater_cell],
                      outputs=[self.history[s + 1]])
        wp.launch(recipe_loss, dim=CELLS, inputs=[self.history[-1], self.recipe], outputs=[loss])


rod = Rod()


def loss_and_grad(power_np):
    power = wp.array(np.asarray(power_np, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rod.record(power, loss)
    tape.backward(loss)
    rod.reset()  # history back to zero for the next episode
    g = power.grad.numpy().copy()
    tape.zero()
    return float(loss.numpy()[0]), g


def evaluate(p):
    return loss_and_grad(p)


PARAMS0 = np.array([1.0, 1.5, 1.0])
FD_EPS = 1e-3

if __name__ == "__main__":
    power = wp.array(PARAMS0.astype(np.float32), dtype=float, requires_grad=True)
    opt = Adam([power], lr=0.05)
    for it in range(5):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            rod.record(power, loss)
        tape.backward(loss)
        rod.reset()
        opt.step([power.grad])
        tape.zero()
        print(f"iter {it}: recipe misfit {float(loss.numpy()[0]):.5f}")
