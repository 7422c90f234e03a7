"""Shape a small truss: move free joints so weighted strut lengths hit their design lengths."""
import numpy as np
import warp as wp

EPS = 1.0e-9


@wp.func
def safe_norm(v: wp.vec3):
    return wp.sqrt(wp.dot(v, v) + EPS)


@wp.func_grad(safe_norm)
def adj_safe_norm(v: wp.vec3, adj_ret: float):
    n = wp.sqrt(wp.dot(v, v) + EPS)
    wp.adjoint[v] += v / n  # expect: custom_adjoint


@wp.kernel
def strut_energy(
    joints: wp.array(dtype=wp.vec3),
    struts: wp.array(dtype=wp.vec2i),
    rest: wp.array(dtype=float),
    stiffness: wp.array(dtype=float),
    energy: wp.array(dtype=float),
):
    s = wp.tid()
    e = struts[s]
    length = safe_norm(joints[e[1]] - joints[e[0]])
    d = length - rest[s]
    wp.atomic_add(energy, 0, 0.5 * stiffness[s] * d * d)


joints_np = np.array([[0, 0, 0], [1, 0, 0], [0.5, 0.9, 0], [0.5, 0.3, 0.8], [1.4, 0.8, 0.3]], dtype=np.float32)
struts_np = np.array([[0, 1], [1, 2], [2, 0], [0, 3], [1, 3], [2, 3], [1, 4], [2, 4], [3, 4]], dtype=np.int32)
rest_np = np.array([1.0, 1.0, 1.0, 0.9, 0.9, 0.9, 0.7, 0.8, 0.9], dtype=np.float32)
stiff_np = np.array([3.0, 3.0, 3.0, 1.0, 1.0, 1.0, 2.0, 2.0, 0.5], dtype=np.float32)

joints = wp.array(joints_np, dtype=wp.vec3, requires_grad=True)
struts = wp.array(struts_np, dtype=wp.vec2i)
rest = wp.array(rest_np, dtype=float)
stiffness = wp.array(stiff_np, dtype=float)
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(strut_energy, dim=len(struts_np), inputs=[joints, struts, rest, stiffness], outputs=[energy])
tape.backward(energy)

energy_value = float(energy.numpy()[0])
joint_grad = joints.grad.numpy().copy()
print("energy", energy_value)
print("joint forces (negative grad):\n", -joint_grad)
