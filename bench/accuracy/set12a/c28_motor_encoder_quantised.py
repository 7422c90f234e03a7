# correct: motor/encoder system identification whose enable_backward=False kernel only quantises the synthetic measurements; the encoder model on the gradient path keeps its adjoint
import numpy as np
import warp as wp

DT = wp.constant(0.005)
STEPS = 120
COUNTS_PER_RAD = wp.constant(651.9)


@wp.kernel
def motor_joint(th: wp.array(dtype=wp.vec2), volts: float, prm: wp.array(dtype=float), th_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    s = th[i]
    km = prm[0]
    b = prm[1]
    torque = km * (volts * (1.0 + 0.5 * float(i)) - km * s[1]) / 1.8 - b * s[1] - 0.3 * wp.sin(s[0])
    w = s[1] + DT * torque / 0.02
    th_out[i] = wp.vec2(s[0] + DT * w, w)


@wp.kernel
def encoder_model(th: wp.array(dtype=wp.vec2), gear: float, counts: wp.array(dtype=float)):
    i = wp.tid()
    counts[i] = COUNTS_PER_RAD * th[i][0] / gear


@wp.kernel(enable_backward=False)
def quantize(counts: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.floor(counts[i] + 0.5)


@wp.kernel
def count_error(counts: wp.array(dtype=float), measured: wp.array(dtype=float), err: wp.array(dtype=float)):
    i = wp.tid()
    d = (counts[i] - measured[i]) / 100.0
    wp.atomic_add(err, 0, d * d)


def simulate(prm, measured=None):
    th = wp.zeros(3, dtype=wp.vec2, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    readings = []
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            th_new = wp.empty_like(th)
            wp.launch(motor_joint, dim=3, inputs=[th, 2.0, prm], outputs=[th_new])
            th = th_new
            if t % 20 == 19:
                counts = wp.zeros(3, dtype=float, requires_grad=True)
                wp.launch(encoder_model, dim=3, inputs=[th, 1.0], outputs=[counts])
                readings.append(counts)
                if measured is not None:
                    wp.launch(count_error, dim=3, inputs=[counts, measured[len(readings) - 1]], outputs=[err])
    return tape, err, readings


PARAMS0 = np.array([0.085, 0.0045])
FD_EPS = [1e-4, 1e-5]


def evaluate(p):
    _, _, raw = simulate(wp.array([0.09, 0.003], dtype=float))
    truth = []
    for r in raw:
        q = wp.empty_like(r)
        wp.launch(quantize, dim=3, inputs=[r], outputs=[q])
        truth.append(q)
    prm = wp.array(p, dtype=float, requires_grad=True)
    tape, err, _ = simulate(prm, truth)
    tape.backward(err)
    return float(err.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("encoder fit error", loss, "grad", g)
