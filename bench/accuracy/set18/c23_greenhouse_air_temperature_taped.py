# correct: greenhouse fit that keeps the record_cmd launch for an untaped solar-gain preview and runs wp.launch of the solar gain inside the tape.
"""Quasi-steady air temperature of five glasshouses on a sunny winter day.

T_in = T_out + (q_sun + q_heat) / (UA + c_v), with q_sun = tau * G * A_floor.
Cover transmissivity tau, envelope conductance UA and ventilation
conductance c_v are fitted to the climate-computer temperatures. The solar
gain launch is recorded once with record_cmd for a quick untaped preview;
the fit launches it on the tape.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_HOUSE = 5
IRR = np.array([420.0, 510.0, 380.0, 460.0, 495.0], dtype=np.float32)  # W/m^2
AREA = np.array([1200.0, 900.0, 1500.0, 1100.0, 800.0], dtype=np.float32)  # m^2
Q_HEAT = np.array([90.0, 60.0, 120.0, 80.0, 40.0], dtype=np.float32)  # kW
T_OUT = np.array([2.0, 3.5, 1.0, 2.5, 4.0], dtype=np.float32)
T_IN_OBS = np.array([21.5, 24.0, 20.1, 22.3, 23.6], dtype=np.float32)


@wp.kernel
def solar_gain(irr: wp.array(dtype=float), area: wp.array(dtype=float), p: wp.array(dtype=float),
               q_sun: wp.array(dtype=float)):
    i = wp.tid()
    q_sun[i] = p[0] * irr[i] * area[i] / 1000.0  # kW


@wp.kernel
def air_temp_misfit(q_sun: wp.array(dtype=float), q_heat: wp.array(dtype=float), area: wp.array(dtype=float),
                    t_out: wp.array(dtype=float), p: wp.array(dtype=float), obs: wp.array(dtype=float),
                    loss: wp.array(dtype=float)):
    i = wp.tid()
    cond = (p[1] + p[2]) * area[i] / 1000.0  # kW/K
    t_in = t_out[i] + (q_sun[i] + q_heat[i]) / cond
    r = t_in - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_HOUSE))


class GreenhouseModel:
    def __init__(self):
        self.irr, self.area, self.q_heat, self.t_out, self.obs = (
            wp.array(a, dtype=float) for a in (IRR, AREA, Q_HEAT, T_OUT, T_IN_OBS))
        self.params = wp.zeros(3, dtype=float, requires_grad=True)
        self.q_sun = wp.zeros(N_HOUSE, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.solar_cmd = wp.launch(solar_gain, dim=N_HOUSE, inputs=[self.irr, self.area, self.params],
                                   outputs=[self.q_sun], record_cmd=True)

    def evaluate(self, p):
        self.params.assign(np.asarray(p, dtype=np.float32))
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(solar_gain, dim=N_HOUSE, inputs=[self.irr, self.area, self.params], outputs=[self.q_sun])
            wp.launch(air_temp_misfit, dim=N_HOUSE,
                      inputs=[self.q_sun, self.q_heat, self.area, self.t_out, self.params, self.obs],
                      outputs=[self.loss])
        tape.backward(self.loss)
        g = self.params.grad.numpy().astype(np.float64)
        tape.zero()
        return float(self.loss.numpy()[0]), g

    def solar_preview(self, p):
        # quick forecast of the solar gain, no gradients needed
        self.params.assign(np.asarray(p, dtype=np.float32))
        self.solar_cmd.launch()
        return self.q_sun.numpy()


PARAMS0 = [0.62, 8.5, 5.0]  # tau, UA (W/m^2K), c_v (W/m^2K)
FD_EPS = [1e-4, 1e-3, 1e-3]
_house = GreenhouseModel()


def evaluate(p):
    return _house.evaluate(p)


if __name__ == "__main__":
    print("solar gain preview (kW):", np.round(_house.solar_preview(PARAMS0), 1))
    l, g = evaluate(PARAMS0)
    print(f"temperature misfit {l:.4f} K^2  grad tau/UA/cv = {np.round(g, 4)}")
