# correct: each mixing step computes the density into a fresh array, so the stratification the adjoint reads is that step's
"""Upper-ocean mixing: a temperature column where the eddy diffusivity is damped
by stratification, K = K0 / (1 + a N^2) (N^2 from a nonlinear equation of state),
calibrated to a mooring's temperature profile after a sunny calm spell."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

NZ = 40
DZ = 2.5
DT = 1.0
N_STEPS = 60
Q_SURF = 0.25       # K per step of solar heating in the top cell


@wp.kernel
def equation_of_state(temp: wp.array(dtype=float), rho: wp.array(dtype=float)):
    i = wp.tid()
    dT = temp[i] - 10.0
    rho[i] = 1027.0 - 0.17 * dT - 0.0075 * dT * dT


@wp.kernel
def mix_step(p: wp.array(dtype=float), temp: wp.array(dtype=float), rho: wp.array(dtype=float),
             temp_out: wp.array(dtype=float)):
    i = wp.tid()
    flux_up = float(0.0)
    flux_dn = float(0.0)
    if i > 0:
        n2 = 9.81 / 1027.0 * (rho[i] - rho[i - 1]) / DZ
        k = p[0] / (1.0 + p[1] * wp.max(n2, 0.0))
        flux_up = k * (temp[i - 1] - temp[i]) / DZ
    if i < NZ - 1:
        n2 = 9.81 / 1027.0 * (rho[i + 1] - rho[i]) / DZ
        k = p[0] / (1.0 + p[1] * wp.max(n2, 0.0))
        flux_dn = k * (temp[i + 1] - temp[i]) / DZ
    heat = float(0.0)
    if i == 0:
        heat = Q_SURF
    temp_out[i] = temp[i] + DT * (flux_up + flux_dn) / DZ + heat


@wp.kernel
def profile_misfit(temp: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = temp[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


T0 = (18.0 - 8.0 / (1.0 + np.exp(-(np.arange(NZ) * DZ - 30.0) / 6.0))).astype(np.float32)


class MixingColumn:
    def __init__(self, requires_grad):
        self.rg = requires_grad
        self.rho = wp.zeros(NZ, dtype=float, requires_grad=requires_grad)

    def step(self, p_w, temp):
        rho = wp.zeros(NZ, dtype=float, requires_grad=self.rg)
        wp.launch(equation_of_state, dim=NZ, inputs=[temp], outputs=[rho])
        out = wp.zeros(NZ, dtype=float, requires_grad=self.rg)
        wp.launch(mix_step, dim=NZ, inputs=[p_w, temp, rho], outputs=[out])
        return out

    def run(self, p_w):
        temp = wp.array(T0, dtype=float, requires_grad=self.rg)
        for _ in range(N_STEPS):
            temp = self.step(p_w, temp)
        return temp


OBS = MixingColumn(False).run(wp.array([2.0, 3000.0], dtype=float)).numpy().astype(np.float64)
OBS += 0.01 * np.sin(np.arange(NZ))
OBS_W = wp.array(OBS.astype(np.float32), dtype=float)
PARAMS0 = np.array([1.6, 2500.0])
FD_EPS = np.array([1e-2, 20.0])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    col = MixingColumn(True)
    tape = wp.Tape()
    with tape:
        temp = col.run(p_w)
        wp.launch(profile_misfit, dim=NZ, inputs=[temp, OBS_W], outputs=[loss])
    tape.backward(loss)
    r = temp.numpy().astype(np.float64) - OBS
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"temperature profile misfit {L:.6f} K^2; grad [K0, a] = {g}")
