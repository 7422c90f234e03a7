# correct: the sphere tracer carries the ray distance nonlinearly through a loop inside one kernel, but the trip count is a module-level constant, so Warp unrolls it.
"""Depth-image fitting of a smooth union (polynomial smooth-min) of two spheres,
rendered by a fixed-step sphere tracer inside one kernel."""
import numpy as np
import warp as wp

RES = 10
MARCH_STEPS = 12


@wp.func
def smin(a: float, b: float, k: float):
    h = wp.clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return b * (1.0 - h) + a * h - k * h * (1.0 - h)


@wp.func
def blob_sdf(p: wp.vec3, shape: wp.array(dtype=float)):
    d1 = wp.length(p - wp.vec3(shape[0], 0.0, 3.0)) - shape[2]
    d2 = wp.length(p - wp.vec3(shape[1], 0.1, 3.1)) - shape[3]
    return smin(d1, d2, shape[4])


@wp.kernel
def trace_depth(shape: wp.array(dtype=float), depth: wp.array(dtype=float)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    d = wp.normalize(wp.vec3(0.3 * ((float(j) + 0.5) / float(RES) - 0.5), 0.3 * ((float(i) + 0.5) / float(RES) - 0.5), 1.0))
    t = float(1.5)
    for s in range(MARCH_STEPS):
        t = t + 0.9 * blob_sdf(t * d, shape)
    depth[k] = t


@wp.kernel
def depth_loss(depth: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    e = depth[k] - ref[k]
    wp.atomic_add(loss, 0, e * e)


def render(shape_np):
    depth = wp.zeros(RES * RES, dtype=float)
    wp.launch(trace_depth, dim=RES * RES, inputs=[wp.array(shape_np, dtype=float)], outputs=[depth])
    return depth.numpy().copy()


REF = render(np.array([-0.3, 0.35, 0.5, 0.45, 0.3], dtype=np.float32))
PARAMS0 = [-0.25, 0.3, 0.45, 0.5, 0.25]


def evaluate(p):
    shape = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    depth = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(trace_depth, dim=RES * RES, inputs=[shape], outputs=[depth])
        wp.launch(depth_loss, dim=RES * RES, inputs=[depth, wp.array(REF, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), shape.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.003 * g
    print(f"depth loss {l:.3e} blobs {p.round(3)}")
