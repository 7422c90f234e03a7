import numpy as np
import warp as wp


@wp.kernel
def calibration_residual(
    coeffs: wp.array(dtype=wp.float32),
    degree: wp.int32,
    volts: wp.array(dtype=wp.float32),
    temps: wp.array(dtype=wp.float32),
    loss: wp.array(dtype=wp.float32),
):
    i = wp.tid()
    t = volts[i]
    acc = coeffs[degree]
    for k in range(degree - 1, -1, -1):
        acc = acc * t + coeffs[k]  # expect: dynamic_loop
    r = acc - temps[i]
    wp.atomic_add(loss, 0, r * r)


def make_samples():
    v = np.linspace(0.2, 1.8, 9).astype(np.float32)
    t = (25.0 + 30.0 * v - 8.0 * v**2 + 1.5 * v**3).astype(np.float32)
    return v, t


def residual_grad(coeffs_np, volts_np, temps_np):
    degree = len(coeffs_np) - 1
    coeffs = wp.array(coeffs_np, dtype=wp.float32, requires_grad=True)
    volts = wp.array(volts_np, dtype=wp.float32)
    temps = wp.array(temps_np, dtype=wp.float32)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(calibration_residual, dim=len(volts_np), inputs=[coeffs, degree, volts, temps], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coeffs.grad.numpy().copy()


def main():
    v, t = make_samples()
    c = np.array([20.0, 25.0, -5.0, 1.0], dtype=np.float32)
    for it in range(6):
        l, g = residual_grad(c, v, t)
        print(f"iter {it}: loss={l:.4f} grad={g}")
        c = (c - 1e-3 * g).astype(np.float32)


if __name__ == "__main__":
    main()
