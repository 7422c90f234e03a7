# correct: the rollout is recorded window by window and the state is cloned between windows, but the clone happens inside the tape block, so the gradient flows through it.
"""Train the gains of a saturating PI thermostat for 10 rooms (RC thermal
model, outdoor temperature cycle) by differentiating the comfort-plus-energy
cost through three daily windows."""
import numpy as np
import warp as wp

wp.config.quiet = True

ROOMS = 10
WINDOWS = 3
WIN = 24
DT = 0.25
SETPOINT = 21.0
PARAMS0 = [0.8, 0.05]


@wp.kernel
def thermal_step(state: wp.array(dtype=wp.vec2), gains: wp.array(dtype=float), tau: wp.array(dtype=float),
                 t: float, out: wp.array(dtype=wp.vec2), cost: wp.array(dtype=float)):
    r = wp.tid()
    temp = state[r][0]
    integ = state[r][1]
    e = SETPOINT - temp
    u = 4.0 * wp.tanh((gains[0] * e + gains[1] * integ) / 4.0)
    t_out = 8.0 + 6.0 * wp.sin(6.2831853 * t / 24.0)
    temp_n = temp + DT * ((t_out - temp) / tau[r] + u)
    out[r] = wp.vec2(temp_n, integ + DT * e)
    wp.atomic_add(cost, 0, (e * e + 0.1 * u * u) / float(ROOMS * WIN))


def rollout(p, log=False):
    gains = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tau = wp.array(np.linspace(3.0, 8.0, ROOMS).astype(np.float32), dtype=float)
    state = wp.array(np.stack([np.linspace(15.0, 19.0, ROOMS), np.zeros(ROOMS)], 1).astype(np.float32),
                     dtype=wp.vec2, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    step = 0
    for day in range(WINDOWS):
        with tape:
            for _ in range(WIN):
                nxt = wp.zeros_like(state)
                wp.launch(thermal_step, dim=ROOMS, inputs=[state, gains, tau, step * DT], outputs=[nxt, cost])
                state = nxt
                step += 1
            state = wp.clone(state)
        if log:
            print(f"  day {day}: mean room temperature {state.numpy()[:, 0].mean():.2f}")
    tape.backward(cost)
    return float(cost.numpy()[0]), gains.grad.numpy().copy()


def evaluate(p):
    return rollout(p)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(6):
        c, g = rollout(p, log=(it == 0))
        p -= 0.01 * g
        print(f"iter {it} cost {c:.3f} kp {p[0]:.3f} ki {p[1]:.3f}")
