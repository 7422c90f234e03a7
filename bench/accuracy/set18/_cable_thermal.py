"""Thermal sag correction for the stay-cable survey."""
import warp as wp

T_REF = 20.0  # deg C, design temperature


@wp.kernel
def thermal_sag(sag: wp.array(dtype=float), temp: wp.array(dtype=float), span: wp.array(dtype=float),
                p: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    # elongation-driven sag increase, linear in the temperature rise
    out[i] = sag[i] + p[2] * 1.0e-3 * (temp[i] - T_REF) * span[i]


def with_thermal_sag(sag, temp, span, params):
    out = wp.empty_like(sag, requires_grad=True)
    wp.launch(thermal_sag, dim=sag.shape[0], inputs=[sag, temp, span, params], outputs=[out])
    return out
