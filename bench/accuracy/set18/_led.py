"""Thermal side of the LED luminaire model."""
import warp as wp


@wp.kernel
def junction_temp(ta: wp.array(dtype=float), power: wp.array(dtype=float), p: wp.array(dtype=float),
                  tj: wp.array(dtype=float)):
    i = wp.tid()
    # case-to-ambient plus junction-to-case thermal resistance, p[0] in 100 K/W
    tj[i] = ta[i] + 273.15 + 100.0 * p[0] * power[i]


def junction_temperature(ta, power, params):
    n = ta.shape[0]
    tj = wp.zeros(n, dtype=float)  # expect: requires_grad
    wp.launch(junction_temp, dim=n, inputs=[ta, power, params], outputs=[tj])
    return tj
