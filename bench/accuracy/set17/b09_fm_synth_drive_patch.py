"""FM synthesizer patch matching: recover the modulation index and the tanh
drive of a two-operator patch from a recorded note (time-domain misfit)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

SR = 8000.0
N = 400
F_CAR = 220.0
F_MOD = 440.0
TWO_PI = 6.283185307179586


@wp.kernel
def fm_operator(p: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    t = float(i) / 8000.0
    out[i] = wp.sin(6.2831853 * 220.0 * t + p[0] * wp.sin(6.2831853 * 440.0 * t))


@wp.kernel
def tanh_drive(p: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.tanh(p[1] * x[i]) / wp.tanh(p[1])


@wp.kernel
def wave_misfit(y: wp.array(dtype=float), rec: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = y[i] - rec[i]
    wp.atomic_add(loss, 0, r * r / 400.0)


def render(p_w, requires_grad):
    x = wp.zeros(N, dtype=float, requires_grad=requires_grad)
    wp.launch(fm_operator, dim=N, inputs=[p_w], outputs=[x])
    y = x  # expect: overwrite
    wp.launch(tanh_drive, dim=N, inputs=[p_w, x], outputs=[y])
    return y


REC = render(wp.array([1.3, 2.2], dtype=float), False).numpy().astype(np.float64)
REC += 0.01 * np.sin(np.arange(N) * 0.37)
REC_W = wp.array(REC.astype(np.float32), dtype=float)
PARAMS0 = np.array([1.2, 2.0])
FD_EPS = 1e-3


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        y = render(p_w, True)
        wp.launch(wave_misfit, dim=N, inputs=[y, REC_W], outputs=[loss])
    tape.backward(loss)
    r = y.numpy().astype(np.float64) - REC
    return float(np.mean(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"waveform misfit {L:.6f}; grad [mod index, drive] = {g}")
