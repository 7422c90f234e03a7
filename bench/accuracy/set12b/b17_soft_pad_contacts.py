import numpy as np
import warp as wp

wp.init()

NX, NY = 8, 3
K_CONTACT = 400.0
PARAMS0 = [0.12, 0.05]


@wp.kernel
def deform(X: wp.array(dtype=wp.vec3), sag: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = X[i][0] - 0.35
    x[i] = X[i] + wp.vec3(0.02 * s, -sag[0] * (1.0 - 4.0 * s * s) - sag[1] * s, 0.0)


@wp.kernel
def collect_contacts(x: wp.array(dtype=wp.vec3), ground: float, count: wp.array(dtype=int),
                     depth: wp.array(dtype=float), normal_load: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    pen = ground - x[i][1]
    if pen > 0.0:
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        depth[slot] = pen
        normal_load[slot] = wp.vec3(0.0, K_CONTACT * pen * pen, 0.0)


@wp.kernel
def contact_energy(depth: wp.array(dtype=float), normal_load: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    c = wp.tid()
    wp.atomic_add(loss, 0, K_CONTACT * depth[c] * depth[c] * depth[c] / 3.0 + 0.01 * wp.length_sq(normal_load[c]))


ys, xs = np.mgrid[0:NY, 0:NX]
X_np = np.stack([xs.ravel() * 0.1, ys.ravel() * 0.05 + 0.01, np.zeros(NX * NY)], 1).astype(np.float32)
X = wp.array(X_np, dtype=wp.vec3)


def evaluate(p):
    sag = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    n = X.shape[0]
    x = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    count = wp.zeros(1, dtype=int)
    depth = wp.zeros(n, dtype=float, requires_grad=True)
    normal_load = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(deform, dim=n, inputs=[X, sag], outputs=[x])
        wp.launch(collect_contacts, dim=n, inputs=[x, 0.0], outputs=[count, depth, normal_load])
        wp.launch(contact_energy, dim=n, inputs=[depth, normal_load], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), sag.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
