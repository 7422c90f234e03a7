# correct: Correct look-alike of b09: windowed backward with checkpoints, adjoints chained from window to window.
"""Correct look-alike of b09: windowed backward with checkpoints, adjoints chained from window to window."""
import numpy as np
import warp as wp

N = 8
WINDOWS = 4
STEPS = 5
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


def run_window(start, power, cost):
    temp = start
    for s in range(STEPS):
        nxt = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(heat_step, dim=N, inputs=[temp, power, 0.0, DT], outputs=[nxt])
        temp = nxt
    wp.launch(comfort, dim=N, inputs=[temp, 20.0], outputs=[cost])
    return temp


def checkpointed_gradient(power, temp0):
    # forward sweep without a tape, keeping each window's start state
    checkpoints = [wp.clone(temp0)]
    total_cost = 0.0
    for w in range(WINDOWS):
        cost = wp.zeros(1, dtype=float)
        checkpoints.append(run_window(checkpoints[-1], power, cost))
        total_cost += cost.numpy()[0]
    # backward sweep: re-record each window, seeded with the adjoint of its end state
    adj_end = wp.zeros(N, dtype=float)
    for w in reversed(range(WINDOWS)):
        start = wp.clone(checkpoints[w], requires_grad=True)
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            end = run_window(start, power, cost)
        tape.backward(grads={cost: wp.ones(1, dtype=float), end: adj_end})
        adj_end = wp.clone(start.grad)
    return total_cost, power.grad.numpy()


def main():
    power = wp.array(np.linspace(3.0, 6.0, N, dtype=np.float32), requires_grad=True)
    temp0 = wp.array(np.full(N, 15.0, dtype=np.float32), requires_grad=True)
    cost, grad = checkpointed_gradient(power, temp0)
    print("cost", cost)
    print("dcost/dpower", grad)
    return grad


if __name__ == "__main__":
    main()
