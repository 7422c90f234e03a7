# correct: a softplus tire contact inside wp.where with an exp that would overflow for the deep, loaded tire, but the exp argument is clamped (double-where)
"""Quarter-car suspension tuning: choose spring stiffness and damper rate of
the suspension so that the car body rides smoothly over a bump. The tire is
a soft penalty contact (smoothed with softplus) that sits deep in its
compression range under load.
"""
import numpy as np
import warp as wp

DT = 0.002
STEPS = 150
M_BODY = 250.0
M_WHEEL = 30.0
K_TIRE = 2.8e4
DELTA = 0.001  # softplus smoothing length of the tire contact
SPEED = 10.0
PEN_STATIC = (M_BODY + M_WHEEL) * 9.81 / K_TIRE  # ~0.098 m: s = pen / DELTA ~ 98 under load


@wp.func
def road(t: float):
    x = SPEED * t - 3.0
    return 0.05 * wp.exp(-x * x * 4.0)


@wp.func
def tire_force(pen: float):
    s = pen / DELTA
    soft = wp.where(s > 20.0, s, wp.log(1.0 + wp.exp(wp.min(s, 20.0))))
    return K_TIRE * DELTA * soft


@wp.kernel
def quarter_car(state: wp.array(dtype=wp.vec4), params: wp.array(dtype=float), t: float, dt: float,
                state_out: wp.array(dtype=wp.vec4), comfort: wp.array(dtype=float)):
    # state = (z_body, z_wheel, v_body, v_wheel), z measured from the static equilibrium
    s = state[0]
    f_susp = params[0] * (s[1] - s[0]) + params[1] * (s[3] - s[2])
    pen = road(t) - s[1] + PEN_STATIC
    a_body = f_susp / M_BODY
    a_wheel = (tire_force(pen) - M_BODY * 9.81 - f_susp) / M_WHEEL - 9.81
    vb = s[2] + dt * a_body
    vw = s[3] + dt * a_wheel
    state_out[0] = wp.vec4(s[0] + dt * vb, s[1] + dt * vw, vb, vw)
    wp.atomic_add(comfort, 0, dt * a_body * a_body)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32) * [1000.0, 100.0], dtype=float, requires_grad=True)
    state = wp.array([[0.0, 0.0, 0.0, 0.0]], dtype=wp.vec4, requires_grad=True)
    comfort = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            nxt = wp.empty_like(state)
            wp.launch(quarter_car, dim=1, inputs=[state, params, k * DT, DT], outputs=[nxt, comfort])
            state = nxt
    tape.backward(comfort)
    return float(comfort.numpy()[0]), params.grad.numpy() * [1000.0, 100.0]


PARAMS0 = np.array([20.0, 15.0])
FD_EPS = [0.05, 0.05]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("comfort index", l, "d/d(k [kN/m], c [100 Ns/m])", g)
