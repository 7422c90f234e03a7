"""Optimize green splits and offsets of three coordinated traffic signals (smoothed queue model)."""
import numpy as np
import warp as wp

NI = 3
T = 60


@wp.func
def green_fraction(t: wp.float32, split: wp.float32, offset: wp.float32):
    phase = wp.sin(0.5 * t + offset)
    return 1.0 / (1.0 + wp.exp(-4.0 * (phase + split)))


@wp.kernel
def queue_step(queue: wp.array2d(dtype=wp.float32), split: wp.array(dtype=wp.float32), offset: wp.array(dtype=wp.float32),
               arrivals: wp.array(dtype=wp.float32), dt: wp.float32, t: int):
    i = wp.tid()
    inflow = arrivals[i]
    if i > 0:
        inflow = inflow + 0.5 * queue[i - 1, t] * green_fraction(wp.float32(t) * dt, split[i - 1], offset[i - 1])
    served = 1.5 * green_fraction(wp.float32(t) * dt, split[i], offset[i])
    queue[i, t + 1] = queue[i, t] + dt * (inflow - served * queue[i, t] / (queue[i, t] + 0.5))


@wp.kernel
def delay_cost(queue: wp.array2d(dtype=wp.float32), split: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, t = wp.tid()
    wp.atomic_add(loss, 0, queue[i, t] * queue[i, t] * 0.01)
    if t == 0:
        wp.atomic_add(loss, 0, split[i] * split[i])


def total_delay(split, offset, dt=0.25):
    queue = wp.zeros((NI, T + 1), dtype=wp.float32, requires_grad=True)
    queue.fill_(1.0)
    arrivals = wp.array(np.array([0.6, 0.4, 0.5], dtype=np.float32), dtype=wp.float32)
    for t in range(T):
        wp.launch(queue_step, dim=NI, inputs=[queue, split, offset, arrivals, dt, t])
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(delay_cost, dim=(NI, T + 1), inputs=[queue, split], outputs=[loss])
    return loss


def optimize(iters=30, lr=0.05):
    split = wp.array(np.zeros(NI, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    offset = wp.array(np.array([0.0, 0.5, 1.0], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = total_delay(split, offset)
        tape.backward(loss)
        g = np.concatenate([split.grad.numpy(), offset.grad.numpy()])
        history.append((np.concatenate([split.numpy(), offset.numpy()]), g))
        split.assign(split.numpy() - lr * split.grad.numpy())
        offset.assign(offset.numpy() - lr * offset.grad.numpy())
        split.grad.zero_()
        split.grad.zero_()  # expect: missing_zero
        if it % 10 == 0:
            print(f"iter {it} delay {loss.numpy()[0]:.4f}")
    return history


if __name__ == "__main__":
    optimize()
