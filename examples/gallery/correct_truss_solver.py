"""Find the equilibrium of a small truss under load by minimising its potential energy.

The solver keeps persistent buffers and clears them after every backward pass.
"""
import numpy as np
import warp as wp


@wp.kernel
def member_forces(
    nodes: wp.array(dtype=wp.vec2),
    members: wp.array(dtype=wp.vec2i),
    rest: wp.array(dtype=float),
    stiffness: float,
    forces: wp.array(dtype=wp.vec2),
):
    m = wp.tid()
    a = members[m][0]
    b = members[m][1]
    d = nodes[b] - nodes[a]
    l = wp.length(d)
    f = stiffness * (l - rest[m]) * d / l
    wp.atomic_add(forces, a, f)
    wp.atomic_sub(forces, b, f)


@wp.kernel
def potential(
    nodes: wp.array(dtype=wp.vec2),
    members: wp.array(dtype=wp.vec2i),
    rest: wp.array(dtype=float),
    stiffness: float,
    load: wp.vec2,
    energy: wp.array(dtype=float),
):
    m = wp.tid()
    a = members[m][0]
    b = members[m][1]
    ext = wp.length(nodes[b] - nodes[a]) - rest[m]
    wp.atomic_add(energy, 0, 0.5 * stiffness * ext * ext - wp.dot(load, nodes[b]) * 0.25)


@wp.kernel
def residual_norm(forces: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, 1.0e-3 * wp.dot(forces[i], forces[i]))


class TrussSolver:
    def __init__(self):
        self.nodes = wp.array(
            np.array([[0, 0], [1, 0], [2, 0], [0.5, 0.8], [1.5, 0.8]], dtype=np.float32), dtype=wp.vec2, requires_grad=True
        )
        members = np.array([[0, 1], [1, 2], [0, 3], [1, 3], [1, 4], [2, 4], [3, 4]], dtype=np.int32)
        self.members = wp.array(members, dtype=wp.vec2i)
        n = self.nodes.numpy()
        self.rest = wp.array(np.linalg.norm(n[members[:, 1]] - n[members[:, 0]], axis=1).astype(np.float32))
        self.forces = wp.zeros(5, dtype=wp.vec2, requires_grad=True)
        self.energy = wp.zeros(1, dtype=float, requires_grad=True)
        self.residual = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()

    def objective_and_grad(self):
        with self.tape:
            wp.launch(member_forces, dim=7, inputs=[self.nodes, self.members, self.rest, 40.0], outputs=[self.forces])
            wp.launch(potential, dim=7, inputs=[self.nodes, self.members, self.rest, 40.0, wp.vec2(0.0, -1.0)], outputs=[self.energy])
            wp.launch(residual_norm, dim=5, inputs=[self.forces], outputs=[self.energy])
        self.tape.backward(self.energy)
        value = float(self.energy.numpy()[0])
        grad = self.nodes.grad.numpy().copy()
        return value, grad

    def clear(self):
        self.forces.zero_()
        self.energy.zero_()
        self.tape.reset()

    def iterate(self, step=0.005):
        value, grad = self.objective_and_grad()
        grad[0] = 0.0  # pinned supports
        grad[2] = 0.0
        self.clear()
        self.nodes.assign(self.nodes.numpy() - step * grad)
        return value, grad


if __name__ == "__main__":
    wp.init()
    solver = TrussSolver()
    for it in range(10):
        value, grad = solver.iterate()
        if it % 3 == 0:
            print(f"iter {it}: objective={value:.5f} |grad|={np.linalg.norm(grad):.4f}")
    print(solver.nodes.numpy())
