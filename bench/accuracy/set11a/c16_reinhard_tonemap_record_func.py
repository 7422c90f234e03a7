# correct: the log-average luminance is computed on the host from .numpy() inside the tape, but tape.record_func registers its exact adjoint, so the gradient path is not cut.
"""Relight a scene through Reinhard's global tone-mapping operator: the key is set
by the log-average luminance, computed on the host. Fit the intensities of two
area lights to a tone-mapped photo."""
import numpy as np
import warp as wp

RES = 12
KEY = 0.18
DELTA = 1.0e-3


@wp.kernel
def radiance(lights: wp.array(dtype=float), img: wp.array(dtype=float)):
    k = wp.tid()
    x = (float(k % RES) + 0.5) / float(RES)
    y = (float(k // RES) + 0.5) / float(RES)
    d0 = (x - 0.2) * (x - 0.2) + (y - 0.3) * (y - 0.3)
    d1 = (x - 0.8) * (x - 0.8) + (y - 0.6) * (y - 0.6)
    img[k] = lights[0] / (0.05 + d0) + lights[1] / (0.05 + d1)


@wp.kernel
def reinhard(img: wp.array(dtype=float), lavg: wp.array(dtype=float), out: wp.array(dtype=float)):
    k = wp.tid()
    s = KEY / lavg[0] * img[k]
    out[k] = s / (1.0 + s)


@wp.kernel
def photo_loss(out: wp.array(dtype=float), photo: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    e = out[k] - photo[k]
    wp.atomic_add(loss, 0, e * e)


def log_average(img, lavg, tape=None):
    """Host-side log-average luminance, with its adjoint recorded on the tape."""
    v = img.numpy().astype(np.float64)
    L = float(np.exp(np.mean(np.log(DELTA + v))))
    lavg.assign(np.array([L], dtype=np.float32))
    if tape is not None:
        def backward():
            g = float(lavg.grad.numpy()[0])
            contrib = g * L / (v.size * (DELTA + v))
            img.grad.assign(img.grad.numpy() + contrib.astype(np.float32))
        tape.record_func(backward, arrays=[img, lavg])


def tonemapped(lights, tape=None, requires_grad=False):
    img = wp.zeros(RES * RES, dtype=float, requires_grad=requires_grad)
    lavg = wp.zeros(1, dtype=float, requires_grad=requires_grad)
    out = wp.zeros(RES * RES, dtype=float, requires_grad=requires_grad)
    wp.launch(radiance, dim=RES * RES, inputs=[lights], outputs=[img])
    log_average(img, lavg, tape)
    wp.launch(reinhard, dim=RES * RES, inputs=[img, lavg], outputs=[out])
    return out


PHOTO = tonemapped(wp.array([0.3, 0.12], dtype=float)).numpy().copy()
PARAMS0 = [0.2, 0.2]


def evaluate(p):
    lights = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        out = tonemapped(lights, tape, requires_grad=True)
        wp.launch(photo_loss, dim=RES * RES, inputs=[out, wp.array(PHOTO, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), lights.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"photo loss {l:.3e} light intensities {p.round(4)}")
