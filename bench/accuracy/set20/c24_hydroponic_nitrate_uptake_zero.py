# correct: b24 (missing_zero): a fresh tape is recorded every iteration and the tape zeroes the parameter gradients after each Adam step.
"""Hydroponic lettuce: nitrate depletion of the nutrient tank by root uptake
with Michaelis-Menten kinetics (Vmax, Km), integrated over a week in hourly
steps inside one kernel per tank (static loop). Vmax and Km (one array) and
the root-mass scaling (a second array) are fitted with warp.optim.Adam to the
tank's ion-selective-electrode readings.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

N_TANK = 4
N_DAY = 7
ROOT_G = np.array([40.0, 55.0, 70.0, 85.0])
NO3_0 = 12.0  # mmol/L
VOL_L = 20.0
OBS = np.array([[11.0, 10.0, 9.0, 8.1, 7.2, 6.3, 5.5],
                [10.6, 9.3, 8.0, 6.8, 5.7, 4.7, 3.8],
                [10.3, 8.6, 7.1, 5.7, 4.4, 3.3, 2.4],
                [10.0, 8.0, 6.2, 4.7, 3.3, 2.2, 1.4]])


@wp.kernel
def tank_week(root: wp.array(dtype=float), kin: wp.array(dtype=float), scale: wp.array(dtype=float),
              conc: wp.array2d(dtype=float)):
    t = wp.tid()
    c = NO3_0
    for d in range(N_DAY):
        uptake = kin[0] * c / (kin[1] + c) * root[t] * scale[0] * 24.0 / 1000.0
        c = c - uptake / VOL_L
        conc[t, d] = c


@wp.kernel
def ise_loss(conc: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    t, d = wp.tid()
    r = conc[t, d] - obs[t, d]
    wp.atomic_add(loss, 0, r * r)


class NutrientFitter:
    def __init__(self):
        self.kin = wp.array([9.0, 2.5], dtype=float, requires_grad=True)
        self.scale = wp.array([1.2], dtype=float, requires_grad=True)
        self.root = wp.array(ROOT_G, dtype=float)
        self.obs = wp.array(OBS, dtype=float)
        self.conc = wp.zeros((N_TANK, N_DAY), dtype=float, requires_grad=True)
        self.opt = Adam([self.kin, self.scale], lr=0.01)
        self.tape = wp.Tape()

    def forward(self, kin, scale, conc):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(tank_week, dim=N_TANK, inputs=[self.root, kin, scale], outputs=[conc])
        wp.launch(ise_loss, dim=(N_TANK, N_DAY), inputs=[conc, self.obs], outputs=[loss])
        return loss

    def fit(self, n_iter, trace=None):
        for it in range(n_iter):
            self.tape = wp.Tape()
            with self.tape:
                loss = self.forward(self.kin, self.scale, self.conc)
            self.tape.backward(loss)
            if trace is not None:
                trace.append((np.concatenate([self.kin.numpy(), self.scale.numpy()]),
                              np.concatenate([self.kin.grad.numpy(), self.scale.grad.numpy()]), float(loss.numpy()[0])))
            self.opt.step([self.kin.grad, self.scale.grad])
            self.tape.zero()

    def loss_at(self, q):
        kin = wp.array(q[:2], dtype=float)
        scale = wp.array(q[2:], dtype=float)
        return float(self.forward(kin, scale, wp.zeros((N_TANK, N_DAY), dtype=float)).numpy()[0])


def verify():
    f = NutrientFitter()
    trace = []
    f.fit(4, trace=trace)
    q, g_used, _ = trace[-1]
    fd = np.zeros(3)
    for k in range(3):
        e = np.zeros(3)
        e[k] = 1e-3
        fd[k] = (f.loss_at(q + e) - f.loss_at(q - e)) / 2e-3
    return g_used, fd


if __name__ == "__main__":
    f = NutrientFitter()
    trace = []
    f.fit(150, trace=trace)
    print(f"ISE misfit {trace[-1][2]:.4f}  Vmax {f.kin.numpy()[0]:.2f}  Km {f.kin.numpy()[1]:.2f}  root scale {f.scale.numpy()[0]:.3f}")
