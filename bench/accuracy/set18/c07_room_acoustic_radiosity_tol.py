# correct: radiosity fit that iterates the contraction to a relative tolerance (a few hundred sweeps) before reporting the steady energies.
"""Steady reverberant energy in a lecture hall by acoustic radiosity.

Six surface patches exchange sound energy through form factors F; each
patch re-radiates (1 - alpha) of what it receives, alpha being the
absorption of its material (plaster walls, timber ceiling). The RoomModel
class iterates B <- E + (1 - alpha) F B to a relative tolerance and compares the steady patch
energies with measured levels to calibrate the two absorption coefficients.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

F = np.array([
    [0.00, 0.22, 0.18, 0.20, 0.22, 0.18],
    [0.22, 0.00, 0.20, 0.18, 0.18, 0.22],
    [0.18, 0.20, 0.00, 0.22, 0.20, 0.20],
    [0.20, 0.18, 0.22, 0.00, 0.20, 0.20],
    [0.22, 0.18, 0.20, 0.20, 0.00, 0.20],
    [0.18, 0.22, 0.20, 0.20, 0.20, 0.00],
], dtype=np.float32)
MATERIAL = np.array([0, 0, 0, 0, 1, 1], dtype=np.int32)  # 4 walls, floor + ceiling
E_SRC = np.array([1.0, 0.0, 0.2, 0.0, 0.3, 0.0], dtype=np.float32)  # loudspeaker near wall 0
B_MEAS = np.array([7.9, 6.6, 6.9, 6.7, 6.2, 5.9], dtype=np.float32)


@wp.kernel
def radiosity_sweep(b_in: wp.array(dtype=float), e: wp.array(dtype=float), ff: wp.array2d(dtype=float),
                    mat: wp.array(dtype=int), alpha: wp.array(dtype=float), b_out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(6):
        s += ff[i, j] * b_in[j]
    b_out[i] = e[i] + (1.0 - alpha[mat[i]]) * s


@wp.kernel
def level_misfit(b: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = b[i] - meas[i]
    wp.atomic_add(loss, 0, r * r)


class RoomModel:
    def __init__(self):
        self.tol = 1.0e-6
        self.max_iter = 500
        self.ff = wp.array(F, dtype=float)
        self.mat = wp.array(MATERIAL, dtype=int)
        self.e = wp.array(E_SRC, dtype=float)
        self.meas = wp.array(B_MEAS, dtype=float)

    def steady_state(self, alpha):
        # the sweep contracts by about (1 - alpha) per pass: iterate until the change is below tol
        b = wp.zeros(6, dtype=float, requires_grad=True)
        prev = b.numpy()
        for it in range(self.max_iter):
            b_next = wp.zeros(6, dtype=float, requires_grad=True)
            wp.launch(radiosity_sweep, dim=6, inputs=[b, self.e, self.ff, self.mat, alpha], outputs=[b_next])
            b = b_next
            cur = b.numpy()
            if np.max(np.abs(cur - prev)) < self.tol * np.max(np.abs(cur)):
                break
            prev = cur
        return b

    def loss_and_grad(self, p):
        alpha = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            b = self.steady_state(alpha)
            wp.launch(level_misfit, dim=6, inputs=[b, self.meas], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), alpha.grad.numpy().astype(np.float64), b.numpy()


PARAMS0 = [0.09, 0.14]


def _exact_loss(p):
    # reference steady state: solve (I - diag(1 - alpha) F) B = E in float64
    a = np.asarray(p, dtype=np.float64)[MATERIAL]
    m = np.eye(6) - (1.0 - a)[:, None] * F.astype(np.float64)
    b = np.linalg.solve(m, E_SRC.astype(np.float64))
    return float(np.sum((b - B_MEAS) ** 2))


def verify():
    _, ad, _ = RoomModel().loss_and_grad(PARAMS0)
    p0 = np.array(PARAMS0, dtype=np.float64)
    fd = np.zeros(2)
    for k in range(2):
        d = np.zeros(2)
        d[k] = 1e-5
        fd[k] = (_exact_loss(p0 + d) - _exact_loss(p0 - d)) / 2e-5
    return ad, fd


if __name__ == "__main__":
    room = RoomModel()
    l, g, b = room.loss_and_grad(PARAMS0)
    print(f"steady patch energies {np.round(b, 3)}  misfit {l:.4f}  dL/dalpha {np.round(g, 3)}")
