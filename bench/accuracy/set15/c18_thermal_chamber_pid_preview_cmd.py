# correct: b18_thermal_chamber_pid_tuning (the record_cmd PID command is replayed only in the untaped preview; on the tape the PID law is an ordinary wp.launch)
"""PID tuning for a bank of environmental test chambers (differentiable closed loop).

Eight chambers with different set points are heated from ambient for 120 s;
the heater power saturates smoothly (tanh) and the walls lose heat by
convection and radiation. On the tape both the PID law and the plant
step are ordinary launches; the pre-built PID command (record_cmd=True) only
replays the loop quickly for the untaped preview of the tuned gains. The
tracking error is differentiated w.r.t. (kp, ki, kd).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CH = 8
N_STEPS = 120
DT = 1.0
T_AMB = 22.0
P_MAX = 2500.0  # W
HEAT_CAP = 2.0e3  # J/K
PARAMS0 = np.array([60.0, 0.8, 40.0])  # kp [W/K], ki [W/K s], kd [W s/K]
FD_EPS = np.array([0.2, 2e-3, 0.2])


@wp.kernel
def pid_law(temp: wp.array2d(dtype=float), integ: wp.array2d(dtype=float), gains: wp.array(dtype=float),
            setpoint: wp.array(dtype=float), t: int, power: wp.array2d(dtype=float)):
    c = wp.tid()
    e = setpoint[c] - temp[t, c]
    de = float(0.0)
    if t > 0:
        de = (temp[t - 1, c] - temp[t, c]) / DT
    integ[t + 1, c] = integ[t, c] + e * DT
    raw = gains[0] * e + gains[1] * integ[t + 1, c] + gains[2] * de
    power[t, c] = 0.5 * P_MAX * (1.0 + wp.tanh(raw / P_MAX))


@wp.kernel
def chamber_step(temp: wp.array2d(dtype=float), power: wp.array2d(dtype=float), setpoint: wp.array(dtype=float),
                 t: int, err: wp.array(dtype=float)):
    c = wp.tid()
    tk = temp[t, c] + 273.15
    loss = 4.5 * (temp[t, c] - T_AMB) + 1.2e-9 * (tk * tk * tk * tk - 295.15 * 295.15 * 295.15 * 295.15)
    temp[t + 1, c] = temp[t, c] + DT * (power[t, c] - loss) / HEAT_CAP
    d = temp[t + 1, c] - setpoint[c]
    wp.atomic_add(err, 0, d * d / float(N_STEPS * N_CH))


class ChamberBank:
    def __init__(self):
        self.setpoint = wp.array(np.linspace(40.0, 70.0, N_CH).astype(np.float32), dtype=float)
        self.gains = wp.zeros(3, dtype=float, requires_grad=True)
        self.temp = wp.full((N_STEPS + 1, N_CH), T_AMB, dtype=float, requires_grad=True)
        self.integ = wp.zeros((N_STEPS + 1, N_CH), dtype=float, requires_grad=True)
        self.power = wp.zeros((N_STEPS, N_CH), dtype=float, requires_grad=True)
        self.pid_cmd = wp.launch(pid_law, dim=N_CH, inputs=[self.temp, self.integ, self.gains, self.setpoint, 0],
                                 outputs=[self.power], record_cmd=True)

    def tracking_error(self, gains):
        self.gains.assign(np.asarray(gains, dtype=np.float32))
        err = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for t in range(N_STEPS):
                wp.launch(pid_law, dim=N_CH, inputs=[self.temp, self.integ, self.gains, self.setpoint, t],
                          outputs=[self.power])
                wp.launch(chamber_step, dim=N_CH, inputs=[self.temp, self.power, self.setpoint, t], outputs=[err])
        tape.backward(err)
        g = self.gains.grad.numpy().astype(np.float64)
        tape.zero()
        return float(err.numpy()[0]), g


    def preview(self, gains):
        """Untaped replay of the closed loop with the pre-built PID command."""
        self.gains.assign(np.asarray(gains, dtype=np.float32))
        err = wp.zeros(1, dtype=float)
        for t in range(N_STEPS):
            self.pid_cmd.set_param_by_name("t", t)
            self.pid_cmd.launch()
            wp.launch(chamber_step, dim=N_CH, inputs=[self.temp, self.power, self.setpoint, t], outputs=[err])
        return self.temp.numpy()[-1], float(err.numpy()[0])


BANK = ChamberBank()


def evaluate(p):
    return BANK.tracking_error(p)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mean squared tracking error {L:.2f} K^2; d/d(kp, ki, kd) = {g}")
    final, e = BANK.preview(PARAMS0 - 0.05 * g / np.linalg.norm(g))
    print("preview after a small step: final temperatures", np.round(final, 1), f"error {e:.2f} K^2")
