"""Viewer support: rotor hub positions of a quad-X body for drawing."""
import warp as wp

wp.set_module_options({"enable_backward": False})

ARM = wp.constant(0.12)


@wp.kernel
def rotor_hubs(x: wp.array(dtype=wp.transform), frame: int, hubs: wp.array2d(dtype=wp.vec3)):
    k = wp.tid()
    ang = 0.7853982 + 1.5707963 * float(k)
    hubs[frame, k] = wp.transform_point(x[0], wp.vec3(ARM * wp.cos(ang), ARM * wp.sin(ang), 0.0))
