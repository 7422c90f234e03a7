# correct: b02 (overwrite): the distal temperatures go into their own preallocated buffer instead of the vent-temperature array the first velocity launch read.
"""Basaltic lava channel: calibrating the viscosity-temperature slope and the
downstream cooling rate from surface velocities (Jeffreys flow) measured by
a drone at the vent stations and at the distal stations of the same channel.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

T_LIQ = 1180.0
T_AMB = 300.0
ETA_LIQ = 120.0
RHO_G_SIN = 2600.0 * 9.81 * 0.06
N_ST = 8
DEPTH = np.array([1.2, 1.4, 1.1, 1.3, 1.5, 1.2, 1.0, 1.3])
T_VENT = np.array([1142.0, 1138.0, 1150.0, 1135.0, 1141.0, 1146.0, 1139.0, 1144.0])
DIST_KM = np.array([0.4, 0.9, 1.3, 1.8, 2.2, 2.9, 3.4, 4.0])
V_UP = np.array([1.1, 1.42, 1.16, 1.21, 1.84, 1.29, 0.83, 1.4])
V_DOWN = np.array([1.089, 1.345, 0.924, 0.888, 1.184, 0.705, 0.415, 0.686])
PARAMS0 = np.array([0.022, 0.045])


@wp.kernel
def jeffreys_velocity(temp: wp.array(dtype=float), depth: wp.array(dtype=float), p: wp.array(dtype=float),
                      vel: wp.array(dtype=float)):
    i = wp.tid()
    eta = ETA_LIQ * wp.exp(p[0] * (T_LIQ - temp[i]))
    vel[i] = RHO_G_SIN * depth[i] * depth[i] / (3.0 * eta) * 0.4


@wp.kernel
def radiative_cooling(t_vent: wp.array(dtype=float), dist: wp.array(dtype=float), p: wp.array(dtype=float),
                      t_out: wp.array(dtype=float)):
    i = wp.tid()
    t_out[i] = T_AMB + (t_vent[i] - T_AMB) * wp.exp(-p[1] * dist[i])


@wp.kernel
def log_misfit(vel: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.log(vel[i] / obs[i])
    wp.atomic_add(loss, 0, r * r)


class LavaChannel:
    def __init__(self):
        self.n = N_ST
        self.temp = wp.array(T_VENT, dtype=float, requires_grad=True)
        self.depth = wp.array(DEPTH, dtype=float)
        self.dist = wp.array(DIST_KM, dtype=float)
        self.t_buf = wp.zeros(self.n, dtype=float, requires_grad=True)
        self.v_up = wp.zeros(self.n, dtype=float, requires_grad=True)
        self.v_down = wp.zeros(self.n, dtype=float, requires_grad=True)

    def forward(self, p, loss):
        wp.launch(jeffreys_velocity, dim=self.n, inputs=[self.temp, self.depth, p], outputs=[self.v_up])
        wp.launch(log_misfit, dim=self.n, inputs=[self.v_up, wp.array(V_UP, dtype=float)], outputs=[loss])
        t_down = self.t_buf
        wp.launch(radiative_cooling, dim=self.n, inputs=[self.temp, self.dist, p], outputs=[t_down])
        wp.launch(jeffreys_velocity, dim=self.n, inputs=[t_down, self.depth, p], outputs=[self.v_down])
        wp.launch(log_misfit, dim=self.n, inputs=[self.v_down, wp.array(V_DOWN, dtype=float)], outputs=[loss])


def evaluate(p_np):
    chan = LavaChannel()
    p = wp.array(p_np, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        chan.forward(p, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


FD_EPS = np.array([1e-4, 1e-3])

if __name__ == "__main__":
    val, g = evaluate(PARAMS0)
    print(f"log-velocity misfit {val:.5f}  d/d(slope) {g[0]:.4f}  d/d(cooling) {g[1]:.4f}")
