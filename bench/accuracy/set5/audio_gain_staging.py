"""Learn per-band gains of a multiband compressor so the soft-clipped output matches a reference mix."""
import numpy as np
import warp as wp

NS = 32
NB = 4


@wp.kernel
def apply_gain(raw: wp.array(dtype=wp.float32), gain: wp.array(dtype=wp.float32), signal: wp.array(dtype=wp.float32)):
    i = wp.tid()
    c = i % NB
    signal[i] *= gain[c]  # expect: inplace_op


@wp.kernel
def soft_clip_error(signal: wp.array(dtype=wp.float32), ref: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = wp.tanh(signal[i]) - ref[i]
    wp.atomic_add(loss, 0, d * d)


def tracks():
    t = np.arange(NS)
    raw = (0.8 * np.sin(0.7 * t) + 0.3 * np.cos(2.1 * t)).astype(np.float32)
    gains = np.array([1.5, 0.7, 1.1, 0.4])[t % NB]
    ref = np.tanh(raw * gains).astype(np.float32)
    return wp.array(raw, dtype=wp.float32), wp.array(ref, dtype=wp.float32)


def mix_error(gain, raw, ref):
    signal = wp.clone(raw)
    signal.requires_grad = True
    wp.launch(apply_gain, dim=NS, inputs=[raw, gain], outputs=[signal])
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(soft_clip_error, dim=NS, inputs=[signal, ref], outputs=[loss])
    return loss


def learn(iters=50, lr=0.1):
    raw, ref = tracks()
    gain = wp.array(np.full(NB, 1.2, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = mix_error(gain, raw, ref)
        tape.backward(loss)
        g = gain.grad.numpy().copy()
        history.append((gain.numpy().copy(), g))
        gain.assign(gain.numpy() - lr * g)
        tape.zero()
    print("gains", gain.numpy(), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    learn()
