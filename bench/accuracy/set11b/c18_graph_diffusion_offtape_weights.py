# correct: a launch inside the tape uses record_tape=False, but it only computes edge weights from the fixed node coordinates, which depend on no parameter.
"""Heat diffusion with first-order loss on a sensor graph (random geometric
graph, Gaussian edge weights): estimate the graph diffusivity and the loss
rate from the node readings after ten explicit steps."""
import numpy as np
import warp as wp

wp.config.quiet = True

NODES = 30
STEPS = 10
DT = 0.05
rng = np.random.default_rng(23)
COORDS = rng.uniform(0.0, 1.0, size=(NODES, 2)).astype(np.float32)
_d = np.linalg.norm(COORDS[:, None] - COORDS[None], axis=2)
EDGES = np.array([(i, j) for i in range(NODES) for j in range(i + 1, NODES) if _d[i, j] < 0.3], dtype=np.int32)
U0 = np.exp(-8.0 * np.sum((COORDS - 0.3) ** 2, axis=1)).astype(np.float32)
PARAMS0 = [0.6, 0.3]
TRUE_PARAMS = [1.0, 0.5]


@wp.kernel
def edge_weights(xy: wp.array(dtype=wp.vec2), edges: wp.array(dtype=wp.vec2i), w: wp.array(dtype=float)):
    e = wp.tid()
    d = xy[edges[e][0]] - xy[edges[e][1]]
    w[e] = wp.exp(-wp.dot(d, d) / 0.02)


@wp.kernel
def edge_flux(u: wp.array(dtype=float), edges: wp.array(dtype=wp.vec2i), w: wp.array(dtype=float),
              prm: wp.array(dtype=float), du: wp.array(dtype=float)):
    e = wp.tid()
    i = edges[e][0]
    j = edges[e][1]
    f = prm[0] * w[e] * (u[j] - u[i])
    wp.atomic_add(du, i, f)
    wp.atomic_sub(du, j, f)


@wp.kernel
def apply(u: wp.array(dtype=float), du: wp.array(dtype=float), prm: wp.array(dtype=float), u_out: wp.array(dtype=float)):
    i = wp.tid()
    u_out[i] = u[i] + DT * (du[i] - prm[1] * u[i] * u[i])


@wp.kernel
def reading_loss(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, 100.0 * d * d)


def diffuse(prm, rg=False):
    xy = wp.array(COORDS, dtype=wp.vec2)
    edges = wp.array(EDGES, dtype=wp.vec2i)
    w = wp.zeros(len(EDGES), dtype=float)
    wp.launch(edge_weights, dim=len(EDGES), inputs=[xy, edges], outputs=[w], record_tape=False)
    u = wp.array(U0, dtype=float, requires_grad=rg)
    for _ in range(STEPS):
        du = wp.zeros(NODES, dtype=float, requires_grad=rg)
        wp.launch(edge_flux, dim=len(EDGES), inputs=[u, edges, w, prm], outputs=[du])
        un = wp.zeros(NODES, dtype=float, requires_grad=rg)
        wp.launch(apply, dim=NODES, inputs=[u, du, prm], outputs=[un])
        u = un
    return u


OBS = diffuse(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u = diffuse(prm, rg=True)
        wp.launch(reading_loss, dim=NODES, inputs=[u, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    print(f"{NODES} nodes, {len(EDGES)} edges")
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.1 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it} loss {l:.4f} D {p[0]:.3f} decay {p[1]:.3f}")
