# correct: b24_quadrotor_altitude_capture (the captured training step ends with tape.zero(), so every replay starts from zero gradients)
"""Learn PD altitude gains and hover feed-forward for a quadrotor fleet, one captured graph per step.

Twelve take-off scenarios (payload, set point) are rolled out for 1.2 s; the
mean squared altitude error is differentiated and an SGD update is applied.
The whole training step (forward, backward, update and the tape's gradient
reset) is captured once with wp.ScopedCapture and replayed with
wp.capture_launch.
"""
import numpy as np
import warp as wp

from _quadrotor import N_SCEN, N_STEPS, climb_step, scenarios, sgd_update

wp.config.quiet = True

GAINS0 = np.array([14.0, 4.0, 0.9], dtype=np.float32)
LR = np.array([2.0, 0.5, 0.005], dtype=np.float32)


class AltitudeTrainer:
    def __init__(self):
        mass, z_ref = scenarios()
        self.mass = wp.array(mass, dtype=float)
        self.z_ref = wp.array(z_ref, dtype=float)
        self.gains = wp.array(GAINS0, dtype=float, requires_grad=True)
        self.lr = wp.array(LR, dtype=float)
        self.z = wp.zeros((N_STEPS + 1, N_SCEN), dtype=float, requires_grad=True)
        self.vz = wp.zeros((N_STEPS + 1, N_SCEN), dtype=float, requires_grad=True)
        self.thrust = wp.zeros((N_STEPS + 1, N_SCEN), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        with wp.ScopedCapture(force_module_load=True) as capture:
            self.loss.zero_()
            with self.tape:
                self.rollout(self.gains, self.loss)
            self.tape.backward(self.loss)
            wp.launch(sgd_update, dim=3, inputs=[self.gains, self.gains.grad, self.lr])
            self.grad_seen = wp.clone(self.gains.grad)
            self.tape.zero()
        self.graph = capture.graph

    def rollout(self, gains, loss):
        for t in range(N_STEPS):
            wp.launch(climb_step, dim=N_SCEN, inputs=[self.z, self.vz, self.thrust, self.mass, self.z_ref, gains, t],
                      outputs=[loss])

    def train_step(self):
        before = self.gains.numpy().copy()
        wp.capture_launch(self.graph)
        return before, self.grad_seen.numpy().copy(), float(self.loss.numpy()[0])


def objective(trainer, gains):
    g = wp.array(np.asarray(gains, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    trainer.rollout(g, loss)
    # the same mean squared altitude error, summed on the host in float64
    d = trainer.z.numpy()[1:].astype(np.float64) - trainer.z_ref.numpy().astype(np.float64)[None, :]
    return float(np.sum(d * d) / N_SCEN)


def verify(n_steps=4, eps=1e-2):
    """The gradient the last captured update consumed vs central FD (fourth order) of the altitude error there."""
    tr = AltitudeTrainer()
    for _ in range(n_steps):
        gains, grad, _ = tr.train_step()
    fd = []
    for k in range(gains.size):
        e = np.zeros(gains.size, dtype=np.float64)
        e[k] = eps * max(1.0, abs(gains[k]))
        f = [objective(tr, gains + s * e) for s in (2, 1, -1, -2)]
        fd.append((-f[0] + 8 * f[1] - 8 * f[2] + f[3]) / (12 * e[k]))
    return grad, np.array(fd)


if __name__ == "__main__":
    tr = AltitudeTrainer()
    for it in range(8):
        gains, grad, loss = tr.train_step()
        print(f"step {it}: altitude error {loss:.4f} m^2, gains {np.round(gains, 3)}")
