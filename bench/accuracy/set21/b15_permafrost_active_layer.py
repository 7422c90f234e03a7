"""Permafrost active layer: a thawing season of daily soil-column steps
(kernels in helper _frost.py), states kept in a ring of buffers; soil
diffusivity and latent-heat factor fitted to borehole thermistors."""
import numpy as np
import warp as wp

from _frost import N_LAYER, conduct

wp.config.quiet = True

N_DAY = 24
PROBES = [2, 5, 9]


class ThawSeason:
    def __init__(self, params):
        self.params = params
        self.n_ring = 3  # expect: ring_buffer
        t0 = np.linspace(-1.0, -4.0, N_LAYER).astype(np.float32)
        self.ring = [wp.array(t0, dtype=float, requires_grad=True) for _ in range(self.n_ring)]

    def surface(self, day):
        return float(-1.0 + 6.0 * np.sin(np.pi * (day + 1) / (N_DAY + 2)))

    def run(self):
        for day in range(N_DAY):
            src = self.ring[day % self.n_ring]
            dst = self.ring[(day + 1) % self.n_ring]
            wp.launch(conduct, dim=N_LAYER, inputs=[self.params, src, self.surface(day)], outputs=[dst])
        return self.ring[N_DAY % self.n_ring]


@wp.kernel
def probe_misfit(t: wp.array(dtype=float), idx: wp.array(dtype=int), obs: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    k = wp.tid()
    d = t[idx[k]] - obs[k]
    wp.atomic_add(loss, 0, d * d)


OBS = ThawSeason(wp.array([1.3, 0.6], dtype=float)).run().numpy()[PROBES] + np.float32(0.05)
PARAMS0 = np.array([1.0, 0.9])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    season = ThawSeason(params)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        t_end = season.run()
        wp.launch(probe_misfit, dim=len(PROBES),
                  inputs=[t_end, wp.array(PROBES, dtype=int), wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(25):
        loss, g = evaluate(p)
        p -= 0.1 * g
    print(f"thermistor loss {loss:.5f}  diffusivity={p[0]:.3f}  latent={p[1]:.3f}")
