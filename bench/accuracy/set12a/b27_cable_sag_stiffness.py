import numpy as np
import warp as wp

DT = wp.constant(0.004)
STEPS = 120
NODES = 9
NODE_MASS = wp.constant(0.05)


@wp.func
def seg_len(d: wp.vec3):
    return wp.sqrt(wp.dot(d, d) + 1.0e-12)


@wp.func_grad(seg_len)
def adj_seg_len(d: wp.vec3, adj_ret: float):
    wp.adjoint[d] = adj_ret * d / wp.sqrt(wp.dot(d, d) + 1.0e-12)  # expect: custom_adjoint


@wp.kernel
def cable_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float),
               x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    if i == 0 or i == NODES - 1:
        x_out[i] = x[i]
        v_out[i] = v[i]
    else:
        f = wp.vec3(0.0, 0.0, -9.81 * NODE_MASS)
        for s in range(2):
            d = x[i - 1 + 2 * s] - x[i]
            stretch = seg_len(d) - prm[1]
            f += prm[0] * stretch * d / seg_len(d)
        va = v[i] * 0.97 + DT * f / NODE_MASS
        v_out[i] = va
        x_out[i] = x[i] + DT * va


@wp.kernel
def sag_cost(x: wp.array(dtype=wp.vec3), target: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    dz = x[i][2] - target * wp.sin(3.14159265 * float(i) / float(NODES - 1))
    wp.atomic_add(cost, 0, dz * dz)


X0 = np.column_stack([np.linspace(0.0, 1.0, NODES), np.zeros(NODES), np.zeros(NODES)])
PARAMS0 = np.array([60.0, 0.13])
FD_EPS = [1e-1, 1e-4]


def evaluate(p):
    prm = wp.array(p, dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(NODES, dtype=wp.vec3, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(cable_step, dim=NODES, inputs=[x, v, prm], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(sag_cost, dim=NODES, inputs=[x, -0.12], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("sag cost", loss, "grad", g)
