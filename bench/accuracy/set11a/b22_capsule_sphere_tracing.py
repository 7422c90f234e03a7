"""Depth-image fitting of a capsule (a swept sphere between two end points) with
a sphere tracer that runs entirely inside one kernel."""
import numpy as np
import warp as wp

RES = 10
MARCH_STEPS = 10
Z_AXIS = 3.0


@wp.func
def capsule_sdf(p: wp.vec3, a: wp.vec3, b: wp.vec3, r: float):
    pa = p - a
    ba = b - a
    h = wp.clamp(wp.dot(pa, ba) / wp.dot(ba, ba), 0.0, 1.0)
    return wp.length(pa - h * ba) - r


@wp.kernel
def trace_depth(shape: wp.array(dtype=float), n_steps: int, depth: wp.array(dtype=float)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    d = wp.normalize(wp.vec3(0.3 * ((float(j) + 0.5) / float(RES) - 0.5), 0.3 * ((float(i) + 0.5) / float(RES) - 0.5), 1.0))
    a = wp.vec3(shape[0], shape[1], Z_AXIS)
    b = wp.vec3(shape[2], shape[3], Z_AXIS)
    t = float(1.5)
    for s in range(n_steps):  # expect: dynamic_loop
        t = t + 0.9 * capsule_sdf(t * d, a, b, shape[4])
    depth[k] = t


@wp.kernel
def depth_loss(depth: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    e = depth[k] - ref[k]
    wp.atomic_add(loss, 0, e * e)


def render(shape_np):
    depth = wp.zeros(RES * RES, dtype=float)
    wp.launch(trace_depth, dim=RES * RES, inputs=[wp.array(shape_np, dtype=float), MARCH_STEPS], outputs=[depth])
    return depth.numpy().copy()


REF = render(np.array([-0.35, -0.1, 0.3, 0.15, 0.5], dtype=np.float32))
PARAMS0 = [-0.3, -0.05, 0.25, 0.1, 0.45]


def evaluate(p):
    shape = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    depth = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    ref = wp.array(REF, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(trace_depth, dim=RES * RES, inputs=[shape, MARCH_STEPS], outputs=[depth])
        wp.launch(depth_loss, dim=RES * RES, inputs=[depth, ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), shape.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.003 * g
    print(f"depth loss {l:.3e} capsule {p.round(3)}")
