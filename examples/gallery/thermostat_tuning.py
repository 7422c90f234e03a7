"""Tune a saturating thermostat gain over a long horizon, processed window by window
to keep the tape small."""
import numpy as np
import warp as wp

ROOMS = 4
WINDOWS = 4
STEPS_PER_WINDOW = 6
DT = 0.25


@wp.kernel
def room_step(
    temp: wp.array(dtype=wp.float64),
    gain: wp.array(dtype=wp.float64),
    outside: wp.float64,
    setpoint: wp.float64,
    temp_next: wp.array(dtype=wp.float64),
    cost: wp.array(dtype=wp.float64),
):
    r = wp.tid()
    t = temp[r]
    leak = wp.float64(0.3) + wp.float64(0.1) * wp.float64(r)
    heating = gain[0] * wp.tanh(setpoint - t)
    t_new = t + wp.float64(DT) * (-leak * (t - outside) + heating)
    temp_next[r] = t_new
    err = t_new - setpoint
    wp.atomic_add(cost, 0, err * err)


def run_window(start_temp, gain):
    temps = [start_temp]
    cost = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    for _ in range(STEPS_PER_WINDOW):
        nxt = wp.zeros(ROOMS, dtype=wp.float64, requires_grad=True)
        wp.launch(room_step, dim=ROOMS, inputs=[temps[-1], gain, 5.0, 20.0], outputs=[nxt, cost])
        temps.append(nxt)
    return temps[-1], cost


def horizon_cost_and_grad(gain_value):
    gain = wp.array([gain_value], dtype=wp.float64, requires_grad=True)
    state = wp.array(np.array([12.0, 14.0, 16.0, 18.0]), dtype=wp.float64, requires_grad=True)
    total_cost = 0.0
    total_grad = 0.0
    for _w in range(WINDOWS):
        window_tape = wp.Tape()  # expect: TW207
        with window_tape:
            final, cost = run_window(state, gain)
        window_tape.backward(cost)
        total_cost += float(cost.numpy()[0])
        total_grad += float(gain.grad.numpy()[0])
        window_tape.zero()
        state = wp.clone(final)
    return total_cost, total_grad


if __name__ == "__main__":
    wp.init()
    gain_value = 4.0
    for it in range(6):
        c, g = horizon_cost_and_grad(gain_value)
        print(f"iter {it}: horizon cost={c:.4f} d/dgain={g:.4f}")
        gain_value -= 0.002 * g
    print("tuned gain", gain_value)
