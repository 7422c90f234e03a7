"""Thermal sag correction for the stay-cable survey."""
import warp as wp

T_REF = 20.0  # deg C, design temperature


@wp.kernel
def add_thermal_sag(temp: wp.array(dtype=float), span: wp.array(dtype=float), p: wp.array(dtype=float),
                    out: wp.array(dtype=float)):
    i = wp.tid()
    # elongation-driven sag increase, linear in the temperature rise
    wp.atomic_add(out, i, p[2] * 1.0e-3 * (temp[i] - T_REF) * span[i])


def with_thermal_sag(sag, temp, span, params):
    out = wp.zeros(sag.shape[0], dtype=float, requires_grad=True)
    out.assign(sag.numpy())  # expect: truncation
    wp.launch(add_thermal_sag, dim=sag.shape[0], inputs=[temp, span, params], outputs=[out])
    return out
