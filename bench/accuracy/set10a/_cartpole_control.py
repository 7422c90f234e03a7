"""Controller kernels for the cart-pole program (b27): a linear state
feedback law u = -K s, saturated smoothly by the motor's torque limit."""
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled

U_MAX = 15.0


@wp.kernel
def state_feedback(state: wp.array(dtype=wp.vec4), gains: wp.array(dtype=float), u: wp.array(dtype=float)):
    s = state[0]
    raw = -(gains[0] * s[0] + gains[1] * s[1] + gains[2] * s[2] + gains[3] * s[3])
    u[0] = U_MAX * wp.tanh(raw / U_MAX)
