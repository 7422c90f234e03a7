"""Height and position of a road-side noise barrier (Maekawa's thin-screen model).

Per octave band, the insertion loss is 10 log10(3 + 20 N) with the Fresnel number
N = 2 delta f / c of the path difference over the barrier top. The design objective
is the traffic-spectrum-weighted insertion loss WEIGHTS . IL, maximised over the
barrier height h and its distance x_b from the road.
"""
import numpy as np
import warp as wp

BANDS = np.array([125.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0], dtype=np.float32)
WEIGHTS = np.array([0.10, 0.16, 0.22, 0.26, 0.17, 0.09])  # normalised A-weighted traffic spectrum
SRC = (0.0, 0.5)       # source (x, height) in m
RCV = (30.0, 1.5)      # receiver
C_AIR = 343.0
PARAMS0 = np.array([3.0, 6.0])  # h, x_b (m)
FD_EPS = 1e-3


@wp.kernel
def insertion_loss(prm: wp.array(dtype=float), f: wp.array(dtype=float), src: wp.vec2, rcv: wp.vec2, c: float,
                   il: wp.array(dtype=float)):
    b = wp.tid()
    top = wp.vec2(prm[1], prm[0])
    delta = wp.length(top - src) + wp.length(rcv - top) - wp.length(rcv - src)
    n_fresnel = 2.0 * delta * f[b] / c
    il[b] = 10.0 * wp.log10(3.0 + 20.0 * n_fresnel)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    f = wp.array(BANDS, dtype=float)
    il = wp.zeros(len(BANDS), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(insertion_loss, dim=len(BANDS), inputs=[prm, f, wp.vec2(*SRC), wp.vec2(*RCV), C_AIR], outputs=[il])
    tape.backward(grads={il: wp.ones(len(BANDS), dtype=float)})  # expect: seeding
    objective = float(WEIGHTS @ il.numpy())
    return objective, prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    J, g = evaluate(PARAMS0)
    print(f"weighted insertion loss {J:.2f} dB; d/d(h, x_b) = {g}")
