"""Li-ion pack thermal model: Arrhenius internal resistance, Joule heating in a
drive cycle followed by a regenerative-braking phase, fitted to cell temperature rise."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 16
rng = np.random.default_rng(5)
CURRENT = (20.0 + 30.0 * rng.random(N_CELL)).astype(np.float32)
SPEED = (5.0 + 20.0 * rng.random(N_CELL)).astype(np.float32)


@wp.kernel
def joule_rise(p: wp.array(dtype=float), cur: wp.array(dtype=float), rise: wp.array(dtype=float)):
    i = wp.tid()
    r_int = p[0] * wp.exp(-p[1] * 0.01 * cur[i])
    rise[i] = rise[i] + r_int * cur[i] * cur[i] * 0.002


@wp.kernel
def regen_current(p: wp.array(dtype=float), speed: wp.array(dtype=float), cur: wp.array(dtype=float)):
    i = wp.tid()
    cur[i] = 1.5 * speed[i] * (1.0 + 0.2 * p[1])


@wp.kernel
def misfit(rise: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = rise[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


class BatteryPack:
    def __init__(self, params):
        self.p = wp.array(np.asarray(params, np.float32), dtype=float, requires_grad=True)
        self.cur = wp.array(CURRENT, dtype=float, requires_grad=True)
        self.speed = wp.array(SPEED, dtype=float)
        self.rise = wp.zeros(N_CELL, dtype=float, requires_grad=True)

    def simulate(self):
        wp.launch(joule_rise, dim=N_CELL, inputs=[self.p, self.cur], outputs=[self.rise])
        wp.launch(regen_current, dim=N_CELL, inputs=[self.p, self.speed], outputs=[self.cur])  # expect: overwrite
        wp.launch(joule_rise, dim=N_CELL, inputs=[self.p, self.cur], outputs=[self.rise])
        return self.rise


def observed():
    pack = BatteryPack([1.2, 0.8])
    return pack.simulate().numpy().copy()


OBS = observed()
PARAMS0 = np.array([1.0, 1.1])


def evaluate(p):
    pack = BatteryPack(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rise = pack.simulate()
        wp.launch(misfit, dim=N_CELL, inputs=[rise, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), pack.p.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(25):
        loss, g = evaluate(p)
        p -= 0.01 * g / (1.0 + np.linalg.norm(g))
    print(f"loss {loss:.5f}  R0={p[0]:.3f}  beta={p[1]:.3f}")
