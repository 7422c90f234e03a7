"""UV parameterisation of a bent surface patch: the boundary UVs are pinned to the
unit square and the interior UVs minimise the symmetric Dirichlet distortion."""
import numpy as np
import warp as wp

from _param_mesh import ParamMesh

N = 4
INTERIOR = [5, 6, 9, 10]


@wp.kernel
def triangle_jacobian(uv: wp.array(dtype=wp.vec2), tris: wp.array(dtype=wp.vec3i),
                      rest_inv: wp.array(dtype=wp.mat22), jac: wp.array(dtype=wp.mat22)):
    t = wp.tid()
    tri = tris[t]
    a = uv[tri[0]]
    e1 = uv[tri[1]] - a
    e2 = uv[tri[2]] - a
    jac[t] = wp.mat22(e1[0], e2[0], e1[1], e2[1]) * rest_inv[t]


@wp.kernel
def symmetric_dirichlet(jac: wp.array(dtype=wp.mat22), area: wp.array(dtype=float), energy: wp.array(dtype=float)):
    t = wp.tid()
    J = jac[t]
    Ji = wp.inverse(J)
    e = wp.ddot(J, J) + wp.ddot(Ji, Ji)
    wp.atomic_add(energy, 0, area[t] * e)


@wp.kernel
def scatter_interior(free: wp.array(dtype=wp.vec2), idx: wp.array(dtype=int), uv: wp.array(dtype=wp.vec2)):
    k = wp.tid()
    uv[idx[k]] = free[k]


def boundary_uv():
    s = np.linspace(0.0, 1.0, N)
    X, Y = np.meshgrid(s, s)
    return np.stack([X.ravel(), Y.ravel()], axis=1).astype(np.float32)


UV0 = boundary_uv()
PARAMS0 = list(UV0[INTERIOR].ravel() + np.array([0.05, -0.03, 0.02, 0.04, -0.04, 0.01, 0.03, -0.02]))


def evaluate(p):
    mesh = ParamMesh(N)
    free = wp.array(np.asarray(p, dtype=np.float32).reshape(-1, 2), dtype=wp.vec2, requires_grad=True)
    idx = wp.array(INTERIOR, dtype=int)
    uv = wp.array(UV0, dtype=wp.vec2, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(scatter_interior, dim=len(INTERIOR), inputs=[free, idx], outputs=[uv])
        wp.launch(triangle_jacobian, dim=mesh.n_tri, inputs=[uv, mesh.tris, mesh.rest_inv], outputs=[mesh.jac])
        wp.launch(symmetric_dirichlet, dim=mesh.n_tri, inputs=[mesh.jac, mesh.area], outputs=[mesh.energy])
    tape.backward(mesh.energy)
    return float(mesh.energy.numpy()[0]), free.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        e, g = evaluate(p)
        p -= 0.002 * g
    print(f"distortion {e:.4f}")
    print("interior uv", p.reshape(-1, 2).round(3))
