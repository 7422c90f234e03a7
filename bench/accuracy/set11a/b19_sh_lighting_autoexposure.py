"""Lighting estimation from a photo of a white sphere: first-order spherical
harmonics irradiance (plus a shininess lobe) rendered through the camera's
auto-exposure, which divides by the mean pixel value."""
import numpy as np
import warp as wp

RES = 14


@wp.kernel
def render_sphere(sh: wp.array(dtype=float), raw: wp.array(dtype=float), total: wp.array(dtype=float)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    x = 2.0 * (float(j) + 0.5) / float(RES) - 1.0
    y = 2.0 * (float(i) + 0.5) / float(RES) - 1.0
    r2 = wp.min(x * x + y * y, 0.95)
    n = wp.vec3(x, y, wp.sqrt(1.0 - r2))
    e = sh[0] + sh[1] * n[0] + sh[2] * n[1] + sh[3] * n[2]
    c = wp.log(1.0 + wp.exp(e))
    raw[k] = c
    wp.atomic_add(total, 0, c)


@wp.kernel
def auto_expose(raw: wp.array(dtype=float), total: wp.array(dtype=float), out: wp.array(dtype=float)):
    k = wp.tid()
    out[k] = raw[k]
    out[k] /= total[0] / float(RES * RES)  # expect: inplace_op


@wp.kernel
def photo_error(img: wp.array(dtype=float), photo: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    d = img[k] - photo[k]
    wp.atomic_add(loss, 0, d * d)


def forward(sh, requires_grad=False):
    raw = wp.zeros(RES * RES, dtype=float, requires_grad=requires_grad)
    total = wp.zeros(1, dtype=float, requires_grad=requires_grad)
    out = wp.zeros(RES * RES, dtype=float, requires_grad=requires_grad)
    wp.launch(render_sphere, dim=RES * RES, inputs=[sh], outputs=[raw, total])
    wp.launch(auto_expose, dim=RES * RES, inputs=[raw, total], outputs=[out])
    return out


PHOTO = forward(wp.array([0.4, 0.8, -0.5, 1.2], dtype=float)).numpy().copy()
PARAMS0 = [0.3, 0.5, -0.2, 1.0]


def evaluate(p):
    sh = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    photo = wp.array(PHOTO, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        img = forward(sh, requires_grad=True)
        wp.launch(photo_error, dim=RES * RES, inputs=[img, photo], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), sh.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"photo error {l:.4e} SH {p.round(3)}")
