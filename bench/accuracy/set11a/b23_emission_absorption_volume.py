"""NeRF-style emission-absorption volume rendering of a Gaussian density blob
with depth-cued emission: recover the blob's centre, width and peak density
from a rendered image."""
import numpy as np
import warp as wp

RES = 10
N_SAMPLES = 12
T_NEAR = 1.0
T_FAR = 3.0


@wp.func
def density(x: wp.vec3, blob: wp.array(dtype=float)):
    d = x - wp.vec3(blob[0], blob[1], 2.0)
    return blob[3] * wp.exp(-wp.dot(d, d) / (2.0 * blob[2] * blob[2]))


@wp.kernel
def volume_render(blob: wp.array(dtype=float), n_samples: int, img: wp.array(dtype=float)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    d = wp.normalize(wp.vec3(0.6 * ((float(j) + 0.5) / float(RES) - 0.5), 0.6 * ((float(i) + 0.5) / float(RES) - 0.5), 1.0))
    dt = (T_FAR - T_NEAR) / float(n_samples)
    trans = float(1.0)
    radiance = float(0.0)
    for s in range(n_samples):  # expect: dynamic_loop
        x = (T_NEAR + (float(s) + 0.5) * dt) * d
        alpha = 1.0 - wp.exp(-density(x, blob) * dt)
        glow = 1.0 - 0.8 * float(s) / float(n_samples)
        radiance += trans * alpha * glow
        trans = trans * (1.0 - alpha)
    img[k] = radiance


@wp.kernel
def image_loss(img: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    e = img[k] - ref[k]
    wp.atomic_add(loss, 0, e * e)


def render(blob_np):
    img = wp.zeros(RES * RES, dtype=float)
    wp.launch(volume_render, dim=RES * RES, inputs=[wp.array(blob_np, dtype=float), N_SAMPLES], outputs=[img])
    return img.numpy().copy()


REF = render(np.array([0.1, -0.05, 0.3, 12.0], dtype=np.float32))
PARAMS0 = [0.0, 0.0, 0.25, 9.0]


def evaluate(p):
    blob = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    img = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    ref = wp.array(REF, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(volume_render, dim=RES * RES, inputs=[blob, N_SAMPLES], outputs=[img])
        wp.launch(image_loss, dim=RES * RES, inputs=[img, ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), blob.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.001 * g
    print(f"image loss {l:.3e} blob centre ({p[0]:.3f}, {p[1]:.3f}) width {p[2]:.3f} density {p[3]:.3f}")
