"""Fit positive decay rates (softplus-parameterised) of a multi-exponential relaxation curve."""
import numpy as np
import warp as wp

from _activations import softplus


@wp.kernel
def relaxation(
    t: wp.array(dtype=float),
    raw_rates: wp.array(dtype=float),
    weights: wp.array(dtype=float),
    signal: wp.array(dtype=float),
):
    i, k = wp.tid()
    rate = softplus(raw_rates[k])
    wp.atomic_add(signal, i, weights[k] * wp.exp(-rate * t[i]))


@wp.kernel
def log_misfit(signal: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.log(signal[i]) - wp.log(meas[i])
    wp.atomic_add(loss, 0, r * r)


t_np = np.linspace(0.0, 5.0, 30).astype(np.float32)
meas_np = (0.6 * np.exp(-0.4 * t_np) + 0.4 * np.exp(-2.5 * t_np)).astype(np.float32)

t = wp.array(t_np, dtype=float)
meas = wp.array(meas_np, dtype=float)
weights = wp.array([0.6, 0.4], dtype=float)
raw_rates = wp.array([-0.5, 1.0], dtype=float, requires_grad=True)
signal = wp.zeros(30, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(relaxation, dim=(30, 2), inputs=[t, raw_rates, weights], outputs=[signal])
    wp.launch(log_misfit, dim=30, inputs=[signal, meas], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
rates_grad = raw_rates.grad.numpy().copy()
print("loss", loss_value, "d/draw_rates", rates_grad)
