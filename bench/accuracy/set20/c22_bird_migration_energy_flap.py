# correct: b22 (retain_grad): retain_grad=True sits on the flapping-cost array, which only one taped launch writes; the re-costed array is an ordinary gradient array.
"""Migratory flight energetics of GPS-tagged storks: each daily leg costs
flapping-flight power (parasite drag ~ v^3 plus induced power) times duration;
legs flown mostly in thermals are then re-costed as soaring with a reduced
metabolic efficiency factor. The body drag coefficient and the soaring factor
are fitted to heart-rate-derived daily energy expenditure.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LEG = 12
MASS = 3.4
SPEED = np.array([13.0, 14.5, 12.0, 15.0, 13.5, 14.0, 12.5, 13.0, 16.0, 14.0, 12.0, 15.5])
HOURS = np.array([6.0, 7.5, 5.0, 8.0, 6.5, 7.0, 5.5, 6.0, 8.5, 7.0, 4.5, 8.0])
SOARING = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1], dtype=np.int32)
DEE_OBS = np.array([1.52, 0.95, 1.21, 1.06, 0.79, 1.78, 0.66, 1.50, 1.19, 0.85, 1.10, 1.11])  # MJ
PARAMS0 = np.array([0.12, 0.3])


@wp.kernel
def flapping_cost(v: wp.array(dtype=float), hours: wp.array(dtype=float), p: wp.array(dtype=float),
                  energy: wp.array(dtype=float)):
    i = wp.tid()
    parasite = 0.5 * 1.2 * p[0] * 0.05 * v[i] * v[i] * v[i]
    induced = (MASS * 9.81) * (MASS * 9.81) / (2.0 * 1.2 * 3.14 * v[i])
    energy[i] = (parasite + induced) * hours[i] * 3600.0 / 0.23 * 1.0e-6


@wp.kernel
def soaring_recost(soar: wp.array(dtype=wp.int32), energy: wp.array(dtype=float), p: wp.array(dtype=float),
                   out: wp.array(dtype=float)):
    i = wp.tid()
    if soar[i] == 1:
        out[i] = energy[i] * p[1] * (1.0 + 0.1 * p[1])


@wp.kernel
def dee_loss(energy: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = energy[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


class FlightModel:
    def __init__(self):
        self.v = wp.array(SPEED, dtype=float)
        self.hours = wp.array(HOURS, dtype=float)
        self.soar = wp.array(SOARING, dtype=wp.int32)
        self.obs = wp.array(DEE_OBS, dtype=float)

    def run(self, p_np):
        p = wp.array(p_np, dtype=float, requires_grad=True)
        self.flap = wp.zeros(N_LEG, dtype=float, requires_grad=True, retain_grad=True)
        self.energy = wp.zeros(N_LEG, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(flapping_cost, dim=N_LEG, inputs=[self.v, self.hours, p], outputs=[self.flap])
            wp.copy(self.energy, self.flap)
            wp.launch(soaring_recost, dim=N_LEG, inputs=[self.soar, self.flap, p], outputs=[self.energy])
            wp.launch(dee_loss, dim=N_LEG, inputs=[self.energy, self.obs], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), p.grad.numpy().copy()


MODEL = FlightModel()


def evaluate(p_np):
    return MODEL.run(p_np)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        val, g = evaluate(p)
        p -= 0.002 * g
    print(f"DEE misfit {val:.5f} MJ^2  drag coefficient {p[0]:.3f}  soaring factor {p[1]:.3f}")
