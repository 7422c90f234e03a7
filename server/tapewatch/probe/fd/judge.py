"""When a finite difference measures a derivative, and when the adjoint fails it: one set of rules.

Both FD checks judge with these: the per-launch check (TW404, ``probe/finite_diff.py``: one launch's
adjoint on private copies) and the harness (TW401, ``fdcheck.py``: the whole script replayed per
evaluation).  They differ in what they perturb, not in what counts as a measurement:

- the step is relative, ``eps * max(1, |x|)``;
- AD and FD agree within ``atol + rtol * |FD|`` (Warp's ``gradcheck`` defaults);
- a disagreement is judged only where the function is smooth over the step: the forward and backward
  one-sided slopes must agree (``smooth``), else the point sits on a kink or a jump;
- and only where it stands above rounding noise: within ``NOISE_FACTOR`` times the noise of the
  difference it measures nothing.

Stdlib only.
"""

from __future__ import annotations

ATOL, RTOL = 1e-3, 1e-2  # Warp's gradcheck defaults
STEP = 1e-3  # relative step for float32 values
STEPS = {4: STEP, 8: 1e-6}  # relative step by float size in bytes (float16 is not checked)
KINK_RTOL = 0.1  # one-sided slopes further apart than this (relative) mark a kink or a jump
NOISE_FACTOR = 4.0  # a disagreement within this many times the rounding noise is not a measurement
FLOAT32_EPS = 2.0 ** -23  # float32's machine epsilon: the spacing of values near 1
FLOAT32_ROUNDING = 2.0 ** -24  # float32's unit roundoff: a value L is known to about L * 2**-24
RESOLUTION_STEPS = 64.0  # a difference that no step resolved is retried at this many steps


def step(eps: float, value: float) -> float:
    """The perturbation of an element of value ``value``: relative for large values."""
    return eps * max(1.0, abs(value))


def close(ad: float, fd: float, atol: float = ATOL, rtol: float = RTOL) -> bool:
    """AD agrees with FD within the tolerance (``fd`` is the reference)."""
    return abs(ad - fd) <= atol + rtol * abs(fd)


def smooth(forward: float, backward: float, atol: float = ATOL) -> bool:
    """The one-sided slopes agree: on a smooth function they differ by O(step); at a kink by O(1)."""
    return abs(forward - backward) <= atol + KINK_RTOL * max(abs(forward), abs(backward))


def within_noise(difference: float, noise: float) -> bool:
    """A difference this small next to the rounding noise measures nothing."""
    return abs(difference) <= NOISE_FACTOR * noise
