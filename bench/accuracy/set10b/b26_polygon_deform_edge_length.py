"""As-rigid-as-possible style deformation of a closed 2-D polyline: some
handle vertices are pulled to target positions while an edge-length energy
keeps the rest of the curve from stretching.

edge_length() has a custom adjoint so that degenerate (zero-length) edges
produce a zero gradient instead of NaN.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

V = 20
EPS = 1e-8
HANDLE_W = 4.0


@wp.func
def edge_length(d: wp.vec2):
    return wp.sqrt(wp.dot(d, d))


@wp.func_grad(edge_length)
def adj_edge_length(d: wp.vec2, adj_ret: float):
    l = wp.sqrt(wp.dot(d, d))
    if l > EPS:
        wp.adjoint[d] += d / l  # expect: custom_adjoint


@wp.kernel
def stretch_energy(x: wp.array(dtype=wp.vec2), rest: wp.array(dtype=float), energy: wp.array(dtype=float)):
    e = wp.tid()
    d = x[(e + 1) % V] - x[e]
    s = edge_length(d) - rest[e]
    wp.atomic_add(energy, 0, s * s)


@wp.kernel
def handle_energy(x: wp.array(dtype=wp.vec2), handles: wp.array(dtype=int), goals: wp.array(dtype=wp.vec2),
                  energy: wp.array(dtype=float)):
    h = wp.tid()
    d = x[handles[h]] - goals[h]
    wp.atomic_add(energy, 0, HANDLE_W * wp.dot(d, d))


ANG = np.linspace(0, 2 * np.pi, V, endpoint=False)
X_REST = np.stack([np.cos(ANG), 0.6 * np.sin(ANG)], 1)
REST = wp.array(np.linalg.norm(np.roll(X_REST, -1, 0) - X_REST, axis=1).astype(np.float32), dtype=float)
HANDLES = wp.array([0, 5, 10, 15], dtype=int)
GOALS = wp.array(np.array([[1.3, 0.0], [0.0, 0.9], [-1.1, 0.1], [0.1, -0.5]], np.float32), dtype=wp.vec2)
PARAMS0 = (X_REST + np.random.default_rng(0).normal(0, 0.03, X_REST.shape)).ravel()


def evaluate(p):
    x = wp.array(np.asarray(p, np.float32).reshape(V, 2), dtype=wp.vec2, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(stretch_energy, dim=V, inputs=[x, REST], outputs=[energy])
        wp.launch(handle_energy, dim=HANDLES.shape[0], inputs=[x, HANDLES, GOALS], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), x.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        e, g = evaluate(p)
        p -= 0.02 * g
        if it % 50 == 0:
            print(f"iter {it:3d} energy {e:.5f}")
    print("final energy", evaluate(p)[0])
