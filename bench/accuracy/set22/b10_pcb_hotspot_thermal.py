"""Printed circuit board hot spots: fit copper spreading and convection coefficients to idle and full-load thermocouple readings."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PART = 32
rng = np.random.default_rng(13)
P_IDLE = rng.uniform(0.05, 0.4, N_PART).astype(np.float32)
P_LOAD = (P_IDLE * rng.uniform(3.0, 6.0, N_PART)).astype(np.float32)
AREA = rng.uniform(0.5, 3.0, N_PART).astype(np.float32)
GAIN = rng.uniform(0.98, 1.02, N_PART).astype(np.float32)


@wp.kernel
def junction_temp(p: wp.array(dtype=float), power: wp.array(dtype=float), area: wp.array(dtype=float),
                  temp: wp.array(dtype=float)):
    i = wp.tid()
    r_spread = p[0] / wp.sqrt(area[i])
    r_conv = 1.0 / (p[1] * area[i])
    temp[i] = 25.0 + power[i] * (r_spread + r_conv) * (1.0 + 0.004 * power[i] * r_conv * 10.0)


@wp.kernel
def thermocouple(temp: wp.array(dtype=float), gain: wp.array(dtype=float), reading: wp.array(dtype=float)):
    i = wp.tid()
    reading[i] = gain[i] * temp[i] - 0.3


@wp.kernel
def reading_err(temp: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = temp[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_PART))


def _t(pw, a=18.0, h=0.09):
    rc = 1.0 / (h * AREA)
    return (25.0 + pw * (a / np.sqrt(AREA) + rc) * (1 + 0.04 * pw * rc)).astype(np.float32)


OBS_IDLE = wp.array(GAIN * _t(P_IDLE) - 0.3, dtype=float)
OBS_LOAD = wp.array(GAIN * _t(P_LOAD) - 0.3, dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    area = wp.array(AREA, dtype=float)
    temp = wp.zeros(N_PART, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
    gain = wp.array(GAIN, dtype=float)
    read_idle = wp.zeros(N_PART, dtype=float, requires_grad=True)
    read_load = wp.zeros(N_PART, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(junction_temp, dim=N_PART, inputs=[params, wp.array(P_IDLE, dtype=float), area], outputs=[temp])
        wp.launch(thermocouple, dim=N_PART, inputs=[temp, gain], outputs=[read_idle])
        wp.launch(junction_temp, dim=N_PART, inputs=[params, wp.array(P_LOAD, dtype=float), area], outputs=[temp])
        wp.launch(thermocouple, dim=N_PART, inputs=[temp, gain], outputs=[read_load])
        wp.launch(reading_err, dim=N_PART, inputs=[read_idle, OBS_IDLE], outputs=[loss])
        wp.launch(reading_err, dim=N_PART, inputs=[read_load, OBS_LOAD], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [15.0, 0.11]
FD_EPS = [1e-2, 1e-4]

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= np.array([1e-2, 1e-7]) * g
    print("PCB thermal loss %.4f params %s" % (l, p))
