"""Nonlinear heat diffusion along a rod; calibrate the conductivity.

Fields live in a dict so the solver can be configured by name.
"""
import numpy as np
import warp as wp

CELLS = 32
STEPS = 12


@wp.func
def conductivity(temp: float, base: float):
    # conductivity grows with temperature
    return base * (1.0 + 0.5 * temp * temp)


@wp.kernel
def diffuse(
    temperature: wp.array(dtype=float),
    base_conductivity: wp.array(dtype=float),
    dt: float,
    temperature_out: wp.array(dtype=float),
):
    i = wp.tid()
    n = temperature.shape[0]
    t = temperature[i]
    left = temperature[wp.max(i - 1, 0)]
    right = temperature[wp.min(i + 1, n - 1)]
    k = conductivity(t, base_conductivity[0])
    temperature_out[i] = t + dt * k * (left - 2.0 * t + right)


@wp.kernel
def probe_error(
    temperature: wp.array(dtype=float),
    measured: wp.array(dtype=float),
    error: wp.array(dtype=float),
):
    i = wp.tid()
    e = temperature[i] - measured[i]
    wp.atomic_add(error, 0, e * e)


def build_fields():
    x = np.linspace(0.0, 1.0, CELLS)
    initial = np.exp(-60.0 * (x - 0.5) ** 2).astype(np.float32) * 1.5
    return {
        "temperature": wp.array(initial, dtype=float, requires_grad=True),
        "work": wp.zeros(CELLS, dtype=float, requires_grad=True),
    }


def calibration_error(base_value, measured):
    fields = build_fields()
    base = wp.array([base_value], dtype=float, requires_grad=True)
    error = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            wp.launch(diffuse, dim=CELLS, inputs=[fields["temperature"], base, 0.2], outputs=[fields["work"]])  # note: TW101
            fields["temperature"].assign(fields["work"])  # expect: TW102
        wp.launch(probe_error, dim=CELLS, inputs=[fields["temperature"], measured], outputs=[error])
    return tape, error, base


if __name__ == "__main__":
    wp.init()
    x = np.linspace(0.0, 1.0, CELLS)
    measured = wp.array((0.9 * np.exp(-25.0 * (x - 0.5) ** 2)).astype(np.float32), dtype=float)
    base_value = 0.6
    for it in range(4):
        tape, error, base = calibration_error(base_value, measured)
        tape.backward(error)
        g = float(base.grad.numpy()[0])
        print(f"iter {it} error={error.numpy()[0]:.5f} grad={g:.5f}")
        base_value = min(max(base_value - 0.05 * g, 0.05), 1.2)
