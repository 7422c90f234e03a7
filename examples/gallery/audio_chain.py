"""Differentiable audio effect chain: learn drive and output level to match a reference."""
import numpy as np
import warp as wp

SAMPLE_COUNT = 256


@wp.kernel
def overdrive(dry: wp.array(dtype=float), drive: wp.array(dtype=float), wet: wp.array(dtype=float)):
    i = wp.tid()
    wet[i] = wp.tanh(drive[0] * dry[i])


@wp.kernel
def output_level(wet: wp.array(dtype=float), level: wp.array(dtype=float)):
    i = wp.tid()
    wet[i] *= level[0]  # expect: TW104


@wp.kernel
def spectral_loss(
    wet: wp.array(dtype=float),
    reference: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    d = wet[i] - reference[i]
    wp.atomic_add(loss, 0, d * d)


def run_chain(dry, reference, drive, level):
    wet = wp.zeros(SAMPLE_COUNT, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    stages = [
        (overdrive, [dry, drive], [wet]),
        (output_level, [wet, level], []),
    ]
    tape = wp.Tape()
    with tape:
        for kernel, inputs, outputs in stages:
            wp.launch(kernel, dim=SAMPLE_COUNT, inputs=inputs, outputs=outputs)
        wp.launch(spectral_loss, dim=SAMPLE_COUNT, inputs=[wet, reference], outputs=[loss])
    return tape, loss


def make_signals():
    t = np.linspace(0.0, 1.0, SAMPLE_COUNT, dtype=np.float32)
    dry = wp.array(np.sin(2 * np.pi * 5 * t) * 0.8)
    reference = wp.array(0.6 * np.tanh(2.5 * np.sin(2 * np.pi * 5 * t) * 0.8))
    return dry, reference


if __name__ == "__main__":
    wp.init()
    dry, reference = make_signals()
    drive = wp.array([1.5], dtype=float, requires_grad=True)
    level = wp.array([0.9], dtype=float, requires_grad=True)
    for step in range(5):
        tape, loss = run_chain(dry, reference, drive, level)
        tape.backward(loss)
        print(f"step {step}: loss={loss.numpy()[0]:.5f} d/ddrive={drive.grad.numpy()[0]:.5f} d/dlevel={level.grad.numpy()[0]:.5f}")
        drive.assign(drive.numpy() - 0.01 * drive.grad.numpy())
        level.assign(level.numpy() - 0.01 * level.grad.numpy())
        tape.zero()
