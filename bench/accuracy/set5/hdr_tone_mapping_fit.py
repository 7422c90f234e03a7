"""Fit per-channel exposure of an extended-Reinhard tone curve (plus linear toe) to a graded reference."""
import numpy as np
import warp as wp

NPIX = 32
WHITE = wp.constant(wp.float32(4.0))


@wp.func
def reinhard(x: wp.float32, white: wp.float32):
    return x * (1.0 + x / (white * white)) / (1.0 + x)


@wp.func_grad(reinhard)
def adj_reinhard(x: wp.float32, white: wp.float32, adj_ret: wp.float32):
    w2 = white * white
    num = x * (1.0 + x / w2)
    dnum = 1.0 + 2.0 * x / w2
    wp.adjoint[x] = adj_ret * (dnum * (1.0 + x) - num) / ((1.0 + x) * (1.0 + x))  # expect: custom_adjoint


@wp.kernel
def tone_map(hdr: wp.array2d(dtype=wp.float32), exposure: wp.array(dtype=wp.float32), out: wp.array2d(dtype=wp.float32)):
    i, c = wp.tid()
    x = exposure[c] * hdr[i, c]
    out[i, c] = reinhard(x, WHITE) + 0.05 * x


@wp.kernel
def grade_loss(out: wp.array2d(dtype=wp.float32), ref: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, c = wp.tid()
    d = out[i, c] - ref[i, c]
    wp.atomic_add(loss, 0, d * d)


def images():
    rng = np.random.default_rng(3)
    hdr = rng.uniform(0.05, 6.0, size=(NPIX, 3)).astype(np.float32)
    x = hdr * np.array([0.7, 1.1, 0.9])
    ref = x * (1.0 + x / 16.0) / (1.0 + x) + 0.05 * x
    return wp.array(hdr, dtype=wp.float32), wp.array(ref.astype(np.float32), dtype=wp.float32)


def grading_error(exposure, hdr, ref):
    out = wp.zeros((NPIX, 3), dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(tone_map, dim=(NPIX, 3), inputs=[hdr, exposure], outputs=[out])
    wp.launch(grade_loss, dim=(NPIX, 3), inputs=[out, ref], outputs=[loss])
    return loss


def fit(iters=60, lr=0.05):
    hdr, ref = images()
    exposure = wp.array(np.ones(3, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = grading_error(exposure, hdr, ref)
        tape.backward(loss)
        g = exposure.grad.numpy().copy()
        history.append((exposure.numpy().copy(), g))
        exposure.assign(exposure.numpy() - lr * g)
        tape.zero()
    print("exposure", exposure.numpy())
    return history


if __name__ == "__main__":
    fit()
