"""Freshwater aquarium oxygen: fit aeration transfer and fish respiration to dissolved-oxygen probes in several tanks (class-based)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_TANK = 30
rng = np.random.default_rng(81)
TEMP = rng.uniform(20.0, 30.0, N_TANK).astype(np.float32)
BIOMASS = rng.uniform(0.1, 1.5, N_TANK).astype(np.float32)  # kg fish per 100 L


@wp.func
def saturation(t: float):
    return 14.6 * wp.exp(-0.0205 * t)  # mg/L


@wp.kernel
def oxygen_balance(p: wp.array(dtype=float), temp: wp.array(dtype=float), bio: wp.array(dtype=float),
                   dissolved: wp.array(dtype=float)):
    i = wp.tid()
    kla = p[0] * (1.0 + 0.024 * (temp[i] - 20.0))
    resp = p[1] * bio[i] * wp.exp(0.07 * (temp[i] - 20.0))
    dissolved[i] = saturation(temp[i]) - resp / kla


@wp.kernel
def probe_err(dissolved: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = dissolved[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_TANK))


class TankFarm:
    def __init__(self):
        self.temp = wp.array(TEMP, dtype=float)
        self.bio = wp.array(BIOMASS, dtype=float)
        t = TEMP.astype(np.float64)
        obs = 14.6 * np.exp(-0.0205 * t) - 0.9 * BIOMASS * np.exp(0.07 * (t - 20)) / (2.5 * (1 + 0.024 * (t - 20)))
        self.obs = wp.array(obs.astype(np.float32), dtype=float)

    def fit_step(self, p):
        params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        dissolved = wp.zeros(N_TANK, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(oxygen_balance, dim=N_TANK, inputs=[params, self.temp, self.bio], outputs=[dissolved])
            wp.launch(probe_err, dim=N_TANK, inputs=[dissolved, self.obs], outputs=[loss])
        value = float(loss.numpy()[0])
        self.temp.numpy()[:] += 1.5  # expect: host_mutation
        tape.backward(loss)
        self.temp.assign(TEMP)
        return value, params.grad.numpy().astype(np.float64)


FARM = TankFarm()


def evaluate(p):
    return FARM.fit_step(p)


PARAMS0 = [2.0, 1.1]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.3 * g
    print("oxygen fit loss %.5f params %s" % (l, p))
