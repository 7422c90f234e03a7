# correct: backward seeded with ones on a per-element loss whose objective is the sum (not the mean)
import numpy as np
import warp as wp

N = 6
A = 9


@wp.kernel
def beam_power(phase: wp.array(dtype=wp.float32), angles: wp.array(dtype=wp.float32), power: wp.array(dtype=wp.float32)):
    a = wp.tid()
    re = float(0.0)
    im = float(0.0)
    for n in range(N):
        psi = phase[n] + 3.14159 * wp.float32(n) * wp.sin(angles[a])
        re += wp.cos(psi)
        im += wp.sin(psi)
    power[a] = re * re + im * im


@wp.kernel
def sidelobe_cost(power: wp.array(dtype=wp.float32), mask: wp.array(dtype=wp.float32), cost: wp.array(dtype=wp.float32)):
    a = wp.tid()
    cost[a] = mask[a] * wp.log(1.0 + power[a])


def setup():
    angles = np.linspace(-1.2, 1.2, A).astype(np.float32)
    mask = np.where(np.abs(angles) > 0.4, 1.0, -1.0).astype(np.float32)
    return angles, mask


def total_cost_grad(phase_np, angles_np, mask_np):
    phase = wp.array(phase_np, dtype=wp.float32, requires_grad=True)
    angles = wp.array(angles_np, dtype=wp.float32)
    mask = wp.array(mask_np, dtype=wp.float32)
    power = wp.zeros(A, dtype=wp.float32, requires_grad=True)
    cost = wp.zeros(A, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(beam_power, dim=A, inputs=[phase, angles], outputs=[power])
        wp.launch(sidelobe_cost, dim=A, inputs=[power, mask], outputs=[cost])
    tape.backward(grads={cost: wp.ones(A, dtype=wp.float32)})
    return float(cost.numpy().sum()), phase.grad.numpy().copy()


def main():
    angles, mask = setup()
    phase = np.linspace(0.0, 0.5, N).astype(np.float32)
    for it in range(6):
        c, g = total_cost_grad(phase, angles, mask)
        print(f"iter {it}: total cost={c:.5f} |grad|={np.abs(g).sum():.5f}")
        phase = (phase - 0.05 * g).astype(np.float32)


if __name__ == "__main__":
    main()
