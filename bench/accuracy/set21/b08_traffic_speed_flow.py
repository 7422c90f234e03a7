"""Motorway speed-flow (Greenshields with a capacity knee) per detector loop:
free-flow speed and jam density fitted with a host-side, count-weighted loss."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LOOP = 14
rng = np.random.default_rng(8)
DENSITY = (10.0 + 60.0 * rng.random(N_LOOP)).astype(np.float32)   # veh/km/lane
COUNTS = rng.integers(20, 400, N_LOOP).astype(np.float64)          # samples per loop
WEIGHT = COUNTS / COUNTS.sum()


@wp.kernel
def loop_speed(p: wp.array(dtype=float), k: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    vf = p[0] * 100.0
    kj = p[1] * 100.0
    v[i] = vf * (1.0 - k[i] / kj) / (1.0 + 0.002 * k[i])


class SpeedFlowFit:
    def __init__(self, v_obs):
        self.k = wp.array(DENSITY, dtype=float)
        self.v_obs = v_obs

    def loss_and_grad(self, p):
        params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
        v = wp.zeros(N_LOOP, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(loop_speed, dim=N_LOOP, inputs=[params, self.k], outputs=[v])
        r = (v.numpy().astype(np.float64) - self.v_obs) / 10.0
        loss = float(np.sum(WEIGHT * r * r))
        v.grad.assign((2.0 * r / 10.0).astype(np.float32))  # expect: seeding
        tape.backward()
        return loss, params.grad.numpy().astype(np.float64)


def _observed():
    k = DENSITY.astype(np.float64)
    return 112.0 * (1.0 - k / 135.0) / (1.0 + 0.002 * k) + 2.0 * np.sin(np.arange(N_LOOP))


FIT = SpeedFlowFit(_observed())
PARAMS0 = np.array([1.0, 1.2])


def evaluate(p):
    return FIT.loss_and_grad(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = evaluate(p)
        p -= 0.01 * g
    print(f"weighted loss {loss:.5f}  v_f={100 * p[0]:.1f} km/h  k_j={100 * p[1]:.1f} veh/km")
