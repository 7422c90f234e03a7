"""Fit the gravity gain of a row of pendulums so they end at target angles.

Semi-implicit Euler integration with double buffering: every step reads one
buffer pair and writes the other, then the roles swap.
"""
import numpy as np
import warp as wp

NUM_PENDULUMS = 8
NUM_STEPS = 6
DT = 0.05


@wp.kernel
def swing_step(
    angles: wp.array(dtype=float),
    rates: wp.array(dtype=float),
    gravity_gain: wp.array(dtype=float),
    damping: float,
    dt: float,
    angles_out: wp.array(dtype=float),
    rates_out: wp.array(dtype=float),
):
    i = wp.tid()
    accel = -gravity_gain[0] * wp.sin(angles[i]) - damping * rates[i]
    new_rate = rates[i] + dt * accel
    rates_out[i] = new_rate
    angles_out[i] = angles[i] + dt * new_rate


@wp.kernel
def angle_mismatch(
    angles: wp.array(dtype=float),
    targets: wp.array(dtype=float),
    mismatch: wp.array(dtype=float),
):
    i = wp.tid()
    diff = angles[i] - targets[i]
    wp.atomic_add(mismatch, 0, diff * diff)


def make_buffers(initial_angles):
    front = (
        wp.array(initial_angles, dtype=float, requires_grad=True),
        wp.zeros(NUM_PENDULUMS, dtype=float, requires_grad=True),
    )
    back = (
        wp.zeros(NUM_PENDULUMS, dtype=float, requires_grad=True),
        wp.zeros(NUM_PENDULUMS, dtype=float, requires_grad=True),
    )
    return front, back


def rollout(gain_value, initial_angles, targets):
    gravity_gain = wp.array([gain_value], dtype=float, requires_grad=True)
    front, back = make_buffers(initial_angles)
    mismatch = wp.zeros(1, dtype=float, requires_grad=True)

    recorder = wp.Tape()
    with recorder:
        src, dst = front, back
        for _ in range(NUM_STEPS):
            wp.launch(swing_step, dim=NUM_PENDULUMS, inputs=[src[0], src[1], gravity_gain, 0.2, DT], outputs=[dst[0], dst[1]])
            src, dst = dst, src  # expect: TW101  # note: TW101
        wp.launch(angle_mismatch, dim=NUM_PENDULUMS, inputs=[src[0], targets], outputs=[mismatch])
    return recorder, mismatch, gravity_gain


def main():
    wp.init()
    rng = np.random.default_rng(3)
    initial_angles = rng.uniform(0.6, 1.4, NUM_PENDULUMS).astype(np.float32)
    targets = wp.array(initial_angles * 0.5, dtype=float)

    gain = 9.0
    for it in range(3):
        recorder, mismatch, gravity_gain = rollout(gain, initial_angles, targets)
        recorder.backward(mismatch)
        grad = float(gravity_gain.grad.numpy()[0])
        print(f"iter {it}: mismatch={mismatch.numpy()[0]:.6f} d/dgain={grad:.6f}")
        gain -= 2.0 * grad
    print("fitted gain", gain)


if __name__ == "__main__":
    main()
