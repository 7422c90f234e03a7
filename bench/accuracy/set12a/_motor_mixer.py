"""Quad-X motor mixer: four rotor thrusts -> collective thrust and body torques."""
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled

ARM = wp.constant(0.12)
KM = wp.constant(0.016)


@wp.kernel
def mix(rotors: wp.array2d(dtype=float), t: int, wrench: wp.array(dtype=wp.vec4)):
    f0 = rotors[t, 0]
    f1 = rotors[t, 1]
    f2 = rotors[t, 2]
    f3 = rotors[t, 3]
    wrench[0] = wp.vec4(f0 + f1 + f2 + f3, ARM * (f1 - f3), ARM * (f2 - f0), KM * (f0 - f1 + f2 - f3))
