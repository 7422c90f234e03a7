# correct: the ray integral runs a runtime-bound (dynamic) loop, but it only accumulates optical depth with += and stores the sum; the nonlinear exp() is applied in a separate kernel.
"""Differentiable X-ray (Beer-Lambert) projection of a Gaussian density blob:
recover its centre, width and peak density from a radiograph."""
import numpy as np
import warp as wp

RES = 12
T_NEAR = 1.0
T_FAR = 3.0


@wp.func
def density(x: wp.vec3, blob: wp.array(dtype=float)):
    d = x - wp.vec3(blob[0], blob[1], 2.0)
    return blob[3] * wp.exp(-wp.dot(d, d) / (2.0 * blob[2] * blob[2]))


@wp.kernel
def optical_depth(blob: wp.array(dtype=float), n_samples: int, tau: wp.array(dtype=float)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    d = wp.normalize(wp.vec3(0.6 * ((float(j) + 0.5) / float(RES) - 0.5), 0.6 * ((float(i) + 0.5) / float(RES) - 0.5), 1.0))
    dt = (T_FAR - T_NEAR) / float(n_samples)
    acc = float(0.0)
    for s in range(n_samples):
        acc += density((T_NEAR + (float(s) + 0.5) * dt) * d, blob) * dt
    tau[k] = acc


@wp.kernel
def transmit(tau: wp.array(dtype=float), img: wp.array(dtype=float)):
    k = wp.tid()
    img[k] = wp.exp(-tau[k])


@wp.kernel
def image_loss(img: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    e = img[k] - ref[k]
    wp.atomic_add(loss, 0, e * e)


def radiograph(blob, n_samples, requires_grad=False):
    tau = wp.zeros(RES * RES, dtype=float, requires_grad=requires_grad)
    img = wp.zeros(RES * RES, dtype=float, requires_grad=requires_grad)
    wp.launch(optical_depth, dim=RES * RES, inputs=[blob, n_samples], outputs=[tau])
    wp.launch(transmit, dim=RES * RES, inputs=[tau], outputs=[img])
    return img


N_SAMPLES = 24
REF = radiograph(wp.array([0.1, -0.05, 0.3, 6.0], dtype=float), N_SAMPLES).numpy().copy()
PARAMS0 = [0.0, 0.0, 0.25, 4.0]


def evaluate(p):
    blob = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        img = radiograph(blob, N_SAMPLES, requires_grad=True)
        wp.launch(image_loss, dim=RES * RES, inputs=[img, wp.array(REF, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), blob.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.0005 * g
    print(f"radiograph loss {l:.3e} centre ({p[0]:.3f}, {p[1]:.3f}) width {p[2]:.3f} density {p[3]:.3f}")
