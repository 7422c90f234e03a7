"""Anharmonic oscillator chain integrated by a small stateful integrator class.

Each particle stores (displacement, velocity) in one vec2d. The cubic spring
coefficient is identified from a desired final energy.
"""
import numpy as np
import warp as wp

wp.init()


@wp.kernel
def chain_update(
    state: wp.array(dtype=wp.vec2d),
    cubic_coeff: wp.array(dtype=wp.float64),
    dt: wp.float64,
    state_out: wp.array(dtype=wp.vec2d),
):
    i = wp.tid()
    n = state.shape[0]
    x = state[i][0]
    v = state[i][1]
    left = wp.float64(0.0)
    right = wp.float64(0.0)
    if i > 0:
        left = state[i - 1][0]
    if i < n - 1:
        right = state[i + 1][0]
    stretch_l = x - left
    stretch_r = right - x
    force = -stretch_l - cubic_coeff[0] * stretch_l * stretch_l * stretch_l
    force += stretch_r + cubic_coeff[0] * stretch_r * stretch_r * stretch_r
    v_new = v + dt * force
    state_out[i] = wp.vec2d(x + dt * v_new, v_new)


@wp.kernel
def chain_energy(state: wp.array(dtype=wp.vec2d), energy: wp.array(dtype=wp.float64)):
    i = wp.tid()
    v = state[i][1]
    wp.atomic_add(energy, 0, wp.float64(0.5) * v * v)


class ChainIntegrator:
    def __init__(self, initial, dt=0.05):
        self.dt = dt
        self.state = wp.array(initial, dtype=wp.vec2d, requires_grad=True)
        self.scratch = wp.zeros_like(self.state)

    def step(self, cubic_coeff):
        wp.launch(chain_update, dim=self.state.shape[0], inputs=[self.state, cubic_coeff, self.dt], outputs=[self.scratch])  # note: TW101
        wp.copy(self.state, self.scratch)  # expect: TW102

    def advance(self, cubic_coeff, steps):
        for _ in range(steps):
            self.step(cubic_coeff)
        return self.state


def kinetic_energy_after(coeff_value, initial, steps=8):
    cubic_coeff = wp.array([coeff_value], dtype=wp.float64, requires_grad=True)
    integrator = ChainIntegrator(initial)
    energy = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        final_state = integrator.advance(cubic_coeff, steps)
        wp.launch(chain_energy, dim=final_state.shape[0], inputs=[final_state], outputs=[energy])
    return tape, energy, cubic_coeff


def initial_state(n=10):
    xs = 0.4 * np.sin(np.linspace(0.0, np.pi, n))
    return np.stack([xs, np.zeros(n)], axis=1)


if __name__ == "__main__":
    initial = initial_state()
    tape, energy, cubic_coeff = kinetic_energy_after(2.0, initial)
    tape.backward(loss=energy)
    print("kinetic energy", energy.numpy()[0])
    print("dE/dcoeff", cubic_coeff.grad.numpy()[0])
