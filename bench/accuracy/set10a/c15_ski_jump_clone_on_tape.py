# correct: the take-off state is handed from the in-run phase to the flight phase with wp.clone inside the tape (recorded), and .numpy() is used only for a log
"""Ski jump: an in-run along a straight ramp (1-D, drag in tuck position)
followed by a flight phase with lift and drag. Fit the tuck drag and the
flight lift coefficient to a measured landing point.
"""
import numpy as np
import warp as wp

RAMP_STEPS = 40
FLIGHT_STEPS = 50
DT = 0.02
RAMP_ANGLE = 0.6


@wp.kernel
def inrun(s: wp.array(dtype=float), sd: wp.array(dtype=float), params: wp.array(dtype=float), dt: float,
          s_out: wp.array(dtype=float), sd_out: wp.array(dtype=float)):
    acc = 9.81 * wp.sin(RAMP_ANGLE) - 0.02 * 9.81 * wp.cos(RAMP_ANGLE) - params[0] * sd[0] * sd[0]
    v1 = sd[0] + dt * acc
    sd_out[0] = v1
    s_out[0] = s[0] + dt * v1


@wp.kernel
def takeoff(s: wp.array(dtype=float), sd: wp.array(dtype=float), state: wp.array(dtype=wp.vec4)):
    c = wp.cos(RAMP_ANGLE)
    sn = wp.sin(RAMP_ANGLE)
    state[0] = wp.vec4(s[0] * c, -s[0] * sn, sd[0] * c, -sd[0] * sn * 0.5)


@wp.kernel
def glide(state: wp.array(dtype=wp.vec4), params: wp.array(dtype=float), dt: float,
          state_out: wp.array(dtype=wp.vec4)):
    st = state[0]
    v = wp.vec2(st[2], st[3])
    speed = wp.length(v)
    lift = params[1] * speed * wp.vec2(-v[1], v[0])
    a = lift - 0.004 * speed * v + wp.vec2(0.0, -9.81)
    vx = st[2] + dt * a[0]
    vy = st[3] + dt * a[1]
    state_out[0] = wp.vec4(st[0] + dt * vx, st[1] + dt * vy, vx, vy)


@wp.kernel
def landing_loss(state: wp.array(dtype=wp.vec4), measured: wp.vec2, loss: wp.array(dtype=float)):
    st = state[0]
    d = wp.vec2(st[0], st[1]) - measured
    loss[0] = 0.01 * wp.dot(d, d)


MEASURED = wp.vec2(45.0, -35.0)
takeoff_log = []


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    s = wp.zeros(1, dtype=float, requires_grad=True)
    sd = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(RAMP_STEPS):
            s1, sd1 = wp.empty_like(s), wp.empty_like(sd)
            wp.launch(inrun, dim=1, inputs=[s, sd, params, DT], outputs=[s1, sd1])
            s, sd = s1, sd1
        jump = wp.zeros(1, dtype=wp.vec4, requires_grad=True)
        wp.launch(takeoff, dim=1, inputs=[s, sd], outputs=[jump])
        takeoff_log.append(float(sd.numpy()[0]))
        state = wp.clone(jump)
        for _ in range(FLIGHT_STEPS):
            st1 = wp.empty_like(state)
            wp.launch(glide, dim=1, inputs=[state, params, DT], outputs=[st1])
            state = st1
        wp.launch(landing_loss, dim=1, inputs=[state, MEASURED], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([0.002, 0.01])
FD_EPS = [1e-4, 1e-4]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("landing miss", l, "grad (tuck drag, lift)", g, "take-off speed", takeoff_log[-1])
