"""Display transforms for the relighting demo."""
import warp as wp

GAMMA = 2.2


@wp.func
def encode_srgb(c: float):
    """Linear radiance to display value (pure power-law approximation)."""
    return wp.where(c > 0.0, wp.pow(c, 1.0 / GAMMA), 0.0)  # expect: nonfinite


@wp.func
def half_lambert(n: wp.vec3, l: wp.vec3):
    return 0.5 * wp.dot(n, l) + 0.5
