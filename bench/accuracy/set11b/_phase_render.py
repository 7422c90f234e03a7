"""Forward-only post-processing of phase fields (no adjoints compiled)."""
import warp as wp

wp.set_module_options({"enable_backward": False})


@wp.kernel
def interface_indicator(u: wp.array(dtype=float), width: float, img: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = wp.exp(-u[i] * u[i] / (width * width))
    img[i] = wp.vec3(0.5 + 0.5 * u[i], s, 0.5 - 0.5 * u[i])
