"""Car suspension damper force: linear at low piston speed, blow-off (digressive) above the knee."""
import warp as wp

V_KNEE = wp.constant(0.3)


@wp.func
def damper_force(v: float, c: float):
    if v < V_KNEE:
        return c * v
    return c * V_KNEE + 0.35 * c * (v - V_KNEE)


@wp.func_grad(damper_force)
def adj_damper_force(v: float, c: float, adj_ret: float):
    if v < V_KNEE:
        wp.adjoint[v] += adj_ret * c
        wp.adjoint[c] += adj_ret * v
    else:
        wp.adjoint[v] += adj_ret * 0.35 * c
        wp.adjoint[c] += adj_ret * (V_KNEE + 0.35 * v)  # expect: custom_adjoint
