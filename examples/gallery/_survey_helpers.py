"""Helpers of the two-tape survey programs: a temperature correction applied to a taped profile."""

import warp as wp


@wp.kernel
def shift(profile: wp.array(dtype=float), dt: float, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = out[i] + profile[i] * 0.002 * dt


def corrected_on_host(profile, dt):
    out = wp.zeros(profile.shape[0], dtype=float, requires_grad=True)
    out.assign(profile.numpy())  # expect[two_tapes_chained_through_host_copy]: TW207
    wp.launch(shift, dim=profile.shape[0], inputs=[profile, dt], outputs=[out])
    return out


def corrected(profile, dt):
    out = wp.zeros(profile.shape[0], dtype=float, requires_grad=True)
    wp.copy(out, profile)
    wp.launch(shift, dim=profile.shape[0], inputs=[profile, dt], outputs=[out])
    return out
