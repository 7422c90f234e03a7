"""Display transforms applied to linear radiance: exposure, Reinhard tone curve, sRGB-ish gamma."""

import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled


@wp.kernel
def tonemap(hdr: wp.array2d(dtype=wp.vec3), exposure: float, gamma: float, ldr: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    c = hdr[i, j] * exposure
    r = wp.vec3(c[0] / (1.0 + c[0]), c[1] / (1.0 + c[1]), c[2] / (1.0 + c[2]))
    ldr[i, j] = wp.vec3(wp.pow(r[0], 1.0 / gamma), wp.pow(r[1], 1.0 / gamma), wp.pow(r[2], 1.0 / gamma))
