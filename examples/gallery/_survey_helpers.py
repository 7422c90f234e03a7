"""Helpers of the two-tape survey programs: a temperature correction applied to a taped profile."""

import warp as wp


@wp.kernel
def shift(base: wp.array(dtype=float), profile: wp.array(dtype=float), dt: float, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = base[i] + profile[i] * 0.002 * dt


def corrected_on_host(profile, dt):
    base = wp.zeros(profile.shape[0], dtype=float, requires_grad=True)
    base.assign(profile.numpy())  # expect[two_tapes_chained_through_host_copy]: TW207
    out = wp.zeros(profile.shape[0], dtype=float, requires_grad=True)
    wp.launch(shift, dim=profile.shape[0], inputs=[base, profile, dt], outputs=[out])
    return out


def corrected(profile, dt):
    base = wp.zeros(profile.shape[0], dtype=float, requires_grad=True)
    wp.copy(base, profile)
    out = wp.zeros(profile.shape[0], dtype=float, requires_grad=True)
    wp.launch(shift, dim=profile.shape[0], inputs=[base, profile, dt], outputs=[out])
    return out
