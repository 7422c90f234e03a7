"""Calibrate a radial vignetting model from a flat-field image (data term + monotonicity prior)."""
import numpy as np
import warp as wp

NPIX = 64


@wp.kernel
def radial_gain(r: wp.array(dtype=wp.float32), coeffs: wp.array(dtype=wp.float32), gain: wp.array(dtype=wp.float32)):
    i = wp.tid()
    r2 = r[i] * r[i]
    gain[i] = 1.0 + coeffs[0] * r2 + coeffs[1] * r2 * r2 + coeffs[2] * r2 * r2 * r2


@wp.kernel
def devignette_misfit(img: wp.array(dtype=wp.float32), gain: wp.array(dtype=wp.float32), flat: wp.float32,
                      loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = img[i] * gain[i] - flat
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def gain_slope(r: wp.array(dtype=wp.float32), coeffs: wp.array(dtype=wp.float32), slope: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(slope, i, 2.0 * coeffs[0] * r[i] + 4.0 * coeffs[1] * r[i] * r[i] * r[i])


@wp.kernel
def monotone_penalty(slope: wp.array(dtype=wp.float32), w: wp.float32, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    s = slope[i] + 0.3
    wp.atomic_add(loss, 0, w * s * s)


def make_data():
    r = np.linspace(0.0, 1.0, NPIX).astype(np.float32)
    true = 1.0 / (1.0 + 0.35 * r**2 + 0.05 * r**4)
    img = (0.8 * true).astype(np.float32)
    return wp.array(r, dtype=wp.float32), wp.array(img, dtype=wp.float32)


def objective(coeffs, r, img):
    scratch = wp.zeros(NPIX, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(radial_gain, dim=NPIX, inputs=[r, coeffs], outputs=[scratch])
    wp.launch(devignette_misfit, dim=NPIX, inputs=[img, scratch, 0.8], outputs=[loss])
    # reuse the scratch buffer for the radial slope of the gain
    scratch.zero_()  # expect: overwrite
    wp.launch(gain_slope, dim=NPIX, inputs=[r, coeffs], outputs=[scratch])
    wp.launch(monotone_penalty, dim=NPIX, inputs=[scratch, 0.01], outputs=[loss])
    return loss


def calibrate(iters=50, lr=0.02):
    r, img = make_data()
    coeffs = wp.array([-0.1, 0.0, 0.0], dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = objective(coeffs, r, img)
        tape.backward(loss)
        g = coeffs.grad.numpy().copy()
        history.append((coeffs.numpy().copy(), g))
        coeffs.assign(coeffs.numpy() - lr * g)
        tape.zero()
    print("coeffs", coeffs.numpy(), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    calibrate()
