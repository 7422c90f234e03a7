# correct: 1-D advection-diffusion (constant wind) on a periodic grid; recover the initial bump amplitude from a final snapshot.
"""1-D advection-diffusion (constant wind) on a periodic grid; recover the initial bump amplitude from a final snapshot."""
import numpy as np
import warp as wp

NX = 64
STEPS = 40
DX = 1.0 / NX
DT = 0.004
NU = 0.01
WIND = 1.0


@wp.kernel
def init_bump(amp: wp.array(dtype=float), u: wp.array(dtype=float)):
    i = wp.tid()
    x = (float(i) + 0.5) * DX
    u[i] = amp[0] * wp.exp(-80.0 * (x - 0.4) * (x - 0.4))


@wp.kernel
def advect_step(u: wp.array(dtype=float), u_next: wp.array(dtype=float)):
    i = wp.tid()
    l = u[(i + NX - 1) % NX]
    r = u[(i + 1) % NX]
    c = u[i]
    adv = WIND * (r - l) / (2.0 * DX)
    lap = (l - 2.0 * c + r) / (DX * DX)
    u_next[i] = c + DT * (NU * lap - adv)


@wp.kernel
def snapshot_loss(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, d * d * DX)


class Solver:
    def __init__(self):
        self.u = wp.zeros(NX, dtype=float, requires_grad=True)
        self.u_next = wp.zeros(NX, dtype=float, requires_grad=True)

    def run(self, amp):
        wp.launch(init_bump, dim=NX, inputs=[amp], outputs=[self.u])
        for _ in range(STEPS):
            wp.launch(advect_step, dim=NX, inputs=[self.u], outputs=[self.u_next])
            self.u, self.u_next = self.u_next, self.u
        return self.u


OBS = (0.8 * np.exp(-80.0 * ((np.arange(NX) + 0.5) / NX - 0.45) ** 2)).astype(np.float32)
PARAMS0 = np.array([1.2], dtype=np.float32)


def evaluate(amp_np):
    amp = wp.array(amp_np, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u_end = Solver().run(amp)
        wp.launch(snapshot_loss, dim=NX, inputs=[u_end, wp.array(OBS)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amp.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(PARAMS0))
