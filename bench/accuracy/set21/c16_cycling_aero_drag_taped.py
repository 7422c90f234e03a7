# correct: the posture kernel is launched with wp.launch inside the tape; the recorded command is only replayed for untaped previews.
"""Track cycling: drag area CdA from rider posture (torso angle) and rolling
resistance fitted to power-meter data of a velodrome session. The posture
kernel is pre-recorded as a launch command for quick untaped previews."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LAP = 20
rng = np.random.default_rng(9)
SPEED = (12.0 + 3.0 * rng.random(N_LAP)).astype(np.float32)      # m/s
TORSO = (10.0 + 25.0 * rng.random(N_LAP)).astype(np.float32)      # degrees
MASS = 82.0


@wp.kernel
def posture_cda(p: wp.array(dtype=float), torso: wp.array(dtype=float), cda: wp.array(dtype=float)):
    i = wp.tid()
    a = torso[i] * 0.017453
    cda[i] = p[0] * 0.2 * (0.6 + 0.4 * wp.sin(a) + 0.3 * wp.sin(a) * wp.sin(a))


@wp.kernel
def crank_power(p: wp.array(dtype=float), cda: wp.array(dtype=float), v: wp.array(dtype=float),
                watts: wp.array(dtype=float)):
    i = wp.tid()
    aero = 0.5 * 1.2 * cda[i] * v[i] * v[i] * v[i]
    roll = p[1] * 0.004 * MASS * 9.81 * v[i]
    watts[i] = (aero + roll) / 0.975


@wp.kernel
def power_misfit(watts: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (watts[i] - obs[i]) / 100.0
    wp.atomic_add(loss, 0, d * d)


class Session:
    def __init__(self, params):
        self.params = wp.array(np.asarray(params, np.float32), dtype=float, requires_grad=True)
        self.v = wp.array(SPEED, dtype=float)
        self.cda = wp.zeros(N_LAP, dtype=float, requires_grad=True)
        self.watts = wp.zeros(N_LAP, dtype=float, requires_grad=True)
        self.posture_cmd = wp.launch(posture_cda, dim=N_LAP, inputs=[self.params, wp.array(TORSO, dtype=float)],
                                     outputs=[self.cda], record_cmd=True)

    def power(self, taped=True):
        if taped:
            wp.launch(posture_cda, dim=N_LAP, inputs=[self.params, wp.array(TORSO, dtype=float)], outputs=[self.cda])
        else:
            self.posture_cmd.launch()
        wp.launch(crank_power, dim=N_LAP, inputs=[self.params, self.cda, self.v], outputs=[self.watts])
        return self.watts


OBS = Session([1.05, 1.1]).power(taped=False).numpy() + 8.0 * np.cos(np.arange(N_LAP)).astype(np.float32)
PARAMS0 = np.array([0.9, 1.3])


def evaluate(p):
    s = Session(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        watts = s.power()
        wp.launch(power_misfit, dim=N_LAP, inputs=[watts, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), s.params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.002 * g
    print(f"power loss {loss:.4f}  CdA scale={p[0]:.3f}  Crr scale={p[1]:.3f}")
