"""Tune a heater power over a long horizon, differentiated window by window to save memory."""
import numpy as np
import warp as wp

N = 8          # rooms
WINDOWS = 4
STEPS = 5      # steps per window
DT = 0.1


@wp.kernel
def heat_step(temp: wp.array(dtype=float), power: wp.array(dtype=float), outside: float, dt: float,
              temp_out: wp.array(dtype=float)):
    i = wp.tid()
    t = temp[i]
    loss_rate = 0.2 * (t - outside) + 0.01 * (t - outside) * wp.abs(t - outside)
    temp_out[i] = t + dt * (power[i] - loss_rate)


@wp.kernel
def comfort(temp: wp.array(dtype=float), setpoint: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = temp[i] - setpoint
    wp.atomic_add(cost, 0, d * d)


def windowed_gradient(power, temp0):
    total_grad = np.zeros(N, dtype=np.float32)
    total_cost = 0.0
    carry = wp.clone(temp0)
    for w in range(WINDOWS):
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        with wp.Tape() as tape:  # expect: truncation
            temp = carry
            for s in range(STEPS):
                nxt = wp.zeros(N, dtype=float, requires_grad=True)
                wp.launch(heat_step, dim=N, inputs=[temp, power, 0.0, DT], outputs=[nxt])
                temp = nxt
            wp.launch(comfort, dim=N, inputs=[temp, 20.0], outputs=[cost])
        tape.backward(cost)
        total_grad += power.grad.numpy()
        total_cost += cost.numpy()[0]
        tape.zero()
        carry = wp.clone(temp)
    return total_cost, total_grad


def main():
    power = wp.array(np.linspace(3.0, 6.0, N, dtype=np.float32), requires_grad=True)
    temp0 = wp.array(np.full(N, 15.0, dtype=np.float32), requires_grad=True)
    cost, grad = windowed_gradient(power, temp0)
    print("cost", cost)
    print("dcost/dpower", grad)
    return grad


if __name__ == "__main__":
    main()
