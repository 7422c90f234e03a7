"""Orchard drip irrigation: daily root-zone water balance (Hargreaves-type
crop evapotranspiration, drainage above field capacity) for a block of trees;
crop coefficient and drainage rate fitted by momentum descent with a Warp
update kernel against soil-moisture probe readings."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_DAY = 30
rng = np.random.default_rng(12)
ET0 = (3.0 + 2.5 * rng.random(N_DAY)).astype(np.float32)      # mm/day
DRIP = (12.0 * (np.arange(N_DAY) % 3 == 0)).astype(np.float32)  # mm/day
FC = 120.0


@wp.kernel
def water_balance(p: wp.array(dtype=float), et0: wp.array(dtype=float), drip: wp.array(dtype=float),
                  theta: wp.array(dtype=float), d: int):
    w = float(112.0)
    if d > 0:
        w = theta[d - 1]
    et = p[0] * et0[d] * w / FC
    w = w + drip[d] - et
    excess = wp.max(w - 0.9 * FC, 0.0)
    theta[d] = w - p[1] * 0.5 * excess


def run_season(params, theta):
    et0 = wp.array(ET0, dtype=float)
    drip = wp.array(DRIP, dtype=float)
    for d in range(N_DAY):
        wp.launch(water_balance, dim=1, inputs=[params, et0, drip], outputs=[theta, d])
    return theta


@wp.kernel
def probe_misfit(theta: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    d = wp.tid()
    r = (theta[d] - obs[d]) / 10.0
    wp.atomic_add(loss, 0, r * r / float(N_DAY))


@wp.kernel
def momentum_step(p: wp.array(dtype=float), g: wp.array(dtype=float), vel: wp.array(dtype=float), lr: float):
    i = wp.tid()
    vel[i] = 0.8 * vel[i] + g[i]
    p[i] = p[i] - lr * vel[i]


class OrchardFit:
    def __init__(self, p0, obs):
        self.params = wp.array(np.asarray(p0, np.float32), dtype=float, requires_grad=True)
        self.vel = wp.zeros(2, dtype=float)
        self.obs = wp.array(obs, dtype=float)
        self.consumed = []

    def forward(self, params):
        theta = wp.zeros(N_DAY, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        run_season(params, theta)
        wp.launch(probe_misfit, dim=N_DAY, inputs=[theta, self.obs], outputs=[loss])
        return loss

    def step(self, lr=0.05):
        tape = wp.Tape()
        with tape:
            loss = self.forward(self.params)
        g = wp.clone(self.params.grad)  # expect: grad_read
        tape.backward(loss)
        self.consumed.append((self.params.numpy().astype(np.float64), g.numpy().astype(np.float64)))
        wp.launch(momentum_step, dim=2, inputs=[self.params, g, self.vel, lr])
        tape.zero()
        return float(loss.numpy()[0])

    def objective(self, p):
        return float(self.forward(wp.array(np.asarray(p, np.float32), dtype=float)).numpy()[0])


def _probes():
    fit = OrchardFit([0.85, 0.6], np.zeros(N_DAY, np.float32))
    th = wp.zeros(N_DAY, dtype=float)
    run_season(fit.params, th)
    return th.numpy() + 2.0 * np.sin(np.arange(N_DAY)).astype(np.float32)


OBS = _probes()
PARAMS0 = np.array([1.0, 0.3])


def verify(n_iter=3, eps=1e-3):
    fit = OrchardFit(PARAMS0, OBS)
    for _ in range(n_iter):
        fit.step()
    p, g = fit.consumed[-1]
    fd = np.array([(fit.objective(p + eps * e) - fit.objective(p - eps * e)) / (2 * eps) for e in np.eye(2)])
    return g, fd


if __name__ == "__main__":
    fit = OrchardFit(PARAMS0, OBS)
    for it in range(40):
        loss = fit.step()
    print(f"probe loss {loss:.5f}  Kc, drainage = {fit.params.numpy()}")
