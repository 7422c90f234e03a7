"""Cheese ripening: fit brine-salting and cave-drying rates to wheel moisture after brining and after the ripening cave."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_WHEEL = 36
rng = np.random.default_rng(23)
SALT_H = rng.uniform(6.0, 30.0, N_WHEEL).astype(np.float32)
CAVE_D = rng.uniform(20.0, 90.0, N_WHEEL).astype(np.float32)
RADIUS = rng.uniform(0.8, 1.4, N_WHEEL).astype(np.float32)


@wp.kernel
def brine(p: wp.array(dtype=float), hours: wp.array(dtype=float), radius: wp.array(dtype=float),
          moist: wp.array(dtype=float)):
    i = wp.tid()
    moist[i] = 0.48 - 0.06 * (1.0 - wp.exp(-p[0] * hours[i] / radius[i]))


@wp.kernel
def cave_dry(p: wp.array(dtype=float), hours: wp.array(dtype=float), days: wp.array(dtype=float),
             radius: wp.array(dtype=float), dried: wp.array(dtype=float)):
    i = wp.tid()
    brined = 0.48 - 0.06 * (1.0 - wp.exp(-p[0] * hours[i] / radius[i]))
    dried[i] = 0.30 + (brined - 0.30) * wp.exp(-p[1] * days[i] / (radius[i] * radius[i]))


@wp.kernel
def probe(m: wp.array(dtype=float), pct: wp.array(dtype=float)):
    i = wp.tid()
    pct[i] = 100.0 * m[i]


@wp.kernel
def moisture_err(m: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = m[i] - obs[i] * 100.0
    wp.atomic_add(loss, 0, r * r / float(N_WHEEL))


class RipeningModel:
    def __init__(self, k_brine=0.08, k_cave=0.012):
        m1 = 0.48 - 0.06 * (1 - np.exp(-k_brine * SALT_H / RADIUS))
        m2 = 0.30 + (m1 - 0.30) * np.exp(-k_cave * CAVE_D / RADIUS ** 2)
        self.obs_brine = wp.array(m1.astype(np.float32), dtype=float)
        self.obs_cave = wp.array(m2.astype(np.float32), dtype=float)
        self.hours = wp.array(SALT_H, dtype=float)
        self.days = wp.array(CAVE_D, dtype=float)
        self.radius = wp.array(RADIUS, dtype=float)

    def loss_and_grad(self, p):
        params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        moist = wp.zeros(N_WHEEL, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
        dried = wp.zeros(N_WHEEL, dtype=float, requires_grad=True)
        pct_brine = wp.zeros(N_WHEEL, dtype=float, requires_grad=True)
        pct_cave = wp.zeros(N_WHEEL, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(brine, dim=N_WHEEL, inputs=[params, self.hours, self.radius], outputs=[moist])
            wp.launch(probe, dim=N_WHEEL, inputs=[moist], outputs=[pct_brine])
            wp.launch(cave_dry, dim=N_WHEEL, inputs=[params, self.hours, self.days, self.radius], outputs=[dried])
            wp.copy(moist, dried)  # the wheel's moisture is now the post-cave value
            wp.launch(probe, dim=N_WHEEL, inputs=[moist], outputs=[pct_cave])
            wp.launch(moisture_err, dim=N_WHEEL, inputs=[pct_brine, self.obs_brine], outputs=[loss])
            wp.launch(moisture_err, dim=N_WHEEL, inputs=[pct_cave, self.obs_cave], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


MODEL = RipeningModel()


def evaluate(p):
    return MODEL.loss_and_grad(p)


PARAMS0 = [0.05, 0.02]
FD_EPS = 1e-4

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 1e-6 * g
    print("ripening moisture loss %.4f params %s" % (l, p))
