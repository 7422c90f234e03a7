# correct: robust (Huber) edge-length fairing of a 2D polyline; the custom adjoints for huber and a safe length are right
import numpy as np
import warp as wp

DELTA = 0.05


@wp.func
def huber(r: float, delta: float):
    a = wp.abs(r)
    if a <= delta:
        return 0.5 * r * r
    return delta * (a - 0.5 * delta)


@wp.func_grad(huber)
def adj_huber(r: float, delta: float, adj_ret: float):
    if wp.abs(r) <= delta:
        wp.adjoint[r] += adj_ret * r
    else:
        wp.adjoint[r] += adj_ret * delta * wp.sign(r)


@wp.func
def safe_len(v: wp.vec2):
    return wp.sqrt(wp.dot(v, v) + 1.0e-9)


@wp.func_grad(safe_len)
def adj_safe_len(v: wp.vec2, adj_ret: float):
    n = wp.sqrt(wp.dot(v, v) + 1.0e-9)
    wp.adjoint[v] += adj_ret * v / n


@wp.kernel
def fairing_energy(pts: wp.array(dtype=wp.vec2), target_len: float, delta: float, e: wp.array(dtype=float)):
    i = wp.tid()
    length = safe_len(pts[i + 1] - pts[i])
    wp.atomic_add(e, 0, huber(length - target_len, delta))


rng = np.random.default_rng(13)
n = 12
s = np.linspace(0.0, 1.0, n)
pts_np = np.stack([s + 0.03 * rng.normal(size=n), 0.2 * np.sin(3 * s) + 0.03 * rng.normal(size=n)], axis=1).astype(np.float32)
pts = wp.array(pts_np, dtype=wp.vec2, requires_grad=True)
energy = wp.zeros(1, dtype=float, requires_grad=True)
TARGET = 0.1

tape = wp.Tape()
with tape:
    wp.launch(fairing_energy, dim=n - 1, inputs=[pts, TARGET, DELTA], outputs=[energy])
tape.backward(energy)

energy_value = float(energy.numpy()[0])
pts_grad = pts.grad.numpy().copy()
print("energy", energy_value, "max |grad|", np.abs(pts_grad).max())
