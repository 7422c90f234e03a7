# correct: after every Adam step tape.zero() clears the gradients of both parameter arrays
"""Office building thermal model: lumped RC zones (envelope UA, inverse
capacitance, solar aperture) fitted to indoor temperature logs with
warp.optim.Adam inside a BuildingCalibrator class, fresh tape per step."""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True
wp.set_device("cpu")

N_ZONE = 5
N_HOUR = 48
hours = np.arange(N_HOUR)
T_OUT = (4.0 + 5.0 * np.sin((hours - 9) * np.pi / 12)).astype(np.float32)
SOLAR = np.clip(np.sin((hours % 24 - 6) * np.pi / 12), 0.0, None).astype(np.float32) * 0.6
HVAC = np.where((hours % 24 >= 7) & (hours % 24 < 19), 3.0, 0.5).astype(np.float32)
ORIENT = np.array([0.6, 1.0, 1.3, 0.8, 0.4], dtype=np.float32)


@wp.kernel
def zone_hour(env: wp.array(dtype=float), sol: wp.array(dtype=float), t_out: wp.array(dtype=float),
              solar: wp.array(dtype=float), hvac: wp.array(dtype=float), orient: wp.array(dtype=float), k: int,
              temp: wp.array2d(dtype=float)):
    z = wp.tid()
    t = temp[z, k]
    gain = env[0] * (t_out[k] - t) + sol[0] * orient[z] * solar[k] + hvac[k]
    temp[z, k + 1] = t + env[1] * gain


@wp.kernel
def log_misfit(temp: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    z, k = wp.tid()
    r = temp[z, k + 1] - obs[z, k]
    wp.atomic_add(loss, 0, r * r / float(N_ZONE * N_HOUR))


DATA = [wp.array(a, dtype=float) for a in (T_OUT, SOLAR, HVAC, ORIENT)]


def simulate(env, sol, requires_grad):
    temp = wp.zeros((N_ZONE, N_HOUR + 1), dtype=float, requires_grad=requires_grad)
    temp.fill_(20.0)
    for k in range(N_HOUR):
        wp.launch(zone_hour, dim=N_ZONE, inputs=[env, sol] + DATA + [k], outputs=[temp])
    return temp


def arr(x, rg=False):
    return wp.array(np.asarray(x, dtype=np.float32), dtype=float, requires_grad=rg)


OBS_NP = simulate(arr([0.35, 0.5]), arr([6.0]), False).numpy()[:, 1:].astype(np.float64)
OBS_NP += 0.05 * np.cos(np.arange(OBS_NP.size)).reshape(OBS_NP.shape)
OBS = arr(OBS_NP)


def objective(x):
    t = simulate(arr(x[:2]), arr(x[2:]), False).numpy()[:, 1:].astype(np.float64)
    return float(np.mean((t - OBS_NP) ** 2))


class BuildingCalibrator:
    def __init__(self):
        self.env = arr([0.3, 0.45], True)
        self.sol = arr([5.0], True)
        self.opt = Adam([self.env, self.sol], lr=0.02)

    def step(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            temp = simulate(self.env, self.sol, True)
            wp.launch(log_misfit, dim=(N_ZONE, N_HOUR), inputs=[temp, OBS], outputs=[loss])
        tape.backward(loss)
        x = np.concatenate([self.env.numpy(), self.sol.numpy()]).astype(np.float64)
        g = np.concatenate([self.env.grad.numpy(), self.sol.grad.numpy()]).astype(np.float64)
        self.opt.step([self.env.grad, self.sol.grad])
        tape.zero()
        return x, g, float(loss.numpy()[0])


def train(n_iter=4):
    cal = BuildingCalibrator()
    return [cal.step() for _ in range(n_iter)]


def verify():
    x, g, _ = train()[-1]
    eps = np.array([1e-4, 1e-4, 1e-3])
    fd = np.zeros(3)
    for k in range(3):
        e = np.zeros(3)
        e[k] = eps[k]
        fd[k] = (objective(x + e) - objective(x - e)) / (2 * eps[k])
    return g, fd


if __name__ == "__main__":
    for it, (x, g, L) in enumerate(train()):
        print(f"step {it}: misfit {L:.4f} K^2  [UA, 1/C, g_sol] = {np.round(x, 4)}  grad {np.round(g, 4)}")
