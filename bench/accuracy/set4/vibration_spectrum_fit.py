# correct: runtime-bound loop whose carried value is a plain += sum, used linearly
import numpy as np
import warp as wp

T = 16


@wp.kernel
def synthesize(amps: wp.array(dtype=wp.float32), omega: wp.array(dtype=wp.float32), n_modes: wp.int32, t: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(n_modes):
        acc += amps[k] * wp.sin(wp.float32(k + 1) * omega[0] * t[i])
    y[i] = acc


@wp.kernel
def spectrum_loss(y: wp.array(dtype=wp.float32), meas: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = y[i] - meas[i]
    wp.atomic_add(loss, 0, d * d)


def measurements():
    t = np.linspace(0.0, 2.0, T).astype(np.float32)
    y = (0.8 * np.sin(1.3 * t) + 0.3 * np.sin(2.6 * t) - 0.1 * np.sin(3.9 * t)).astype(np.float32)
    return t, y


def fit_grad(amps_np, omega_value, t_np, y_np):
    amps = wp.array(amps_np, dtype=wp.float32, requires_grad=True)
    omega = wp.array([omega_value], dtype=wp.float32, requires_grad=True)
    t = wp.array(t_np, dtype=wp.float32)
    meas = wp.array(y_np, dtype=wp.float32)
    y = wp.zeros(T, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(synthesize, dim=T, inputs=[amps, omega, len(amps_np), t], outputs=[y])
        wp.launch(spectrum_loss, dim=T, inputs=[y, meas], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amps.grad.numpy().copy(), float(omega.grad.numpy()[0])


def main():
    t, y = measurements()
    amps = np.array([0.5, 0.5, 0.0], dtype=np.float32)
    omega = 1.2
    for it in range(6):
        l, ga, go = fit_grad(amps, omega, t, y)
        print(f"iter {it}: loss={l:.5f} omega={omega:.4f} d_omega={go:.5f}")
        amps = (amps - 0.02 * ga).astype(np.float32)
        omega -= 0.002 * go


if __name__ == "__main__":
    main()
