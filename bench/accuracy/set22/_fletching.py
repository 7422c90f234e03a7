"""Arrow drag law: quadratic drag below the fletching transition, a linearised stall law above it."""
import warp as wp

V_STALL = 60.0


@wp.func
def arrow_drag(v: float, cd: float):
    if v < V_STALL:
        return cd * v * v
    else:
        return cd * (2.0 * V_STALL * v - V_STALL * V_STALL)


@wp.func_grad(arrow_drag)
def adj_arrow_drag(v: float, cd: float, adj_ret: float):
    if v < V_STALL:
        wp.adjoint[cd] += adj_ret * v * v
        wp.adjoint[v] += adj_ret * 2.0 * cd * v
    else:
        wp.adjoint[cd] += adj_ret * 2.0 * V_STALL * v  # expect: custom_adjoint
        wp.adjoint[v] += adj_ret * 2.0 * cd * V_STALL
