"""Match per-channel gains of a multichannel recording to a reference mix."""
import numpy as np
import warp as wp

T, C = 128, 4
SR = 64.0


@wp.kernel
def synth(freqs: wp.array(dtype=float), sr: float, x: wp.array2d(dtype=float)):
    t, c = wp.tid()
    x[t, c] = wp.sin(2.0 * wp.pi * freqs[c] * float(t) / sr) + 0.3 * wp.sin(6.0 * wp.pi * freqs[c] * float(t) / sr)


@wp.kernel
def apply_gain(x: wp.array2d(dtype=float), gain: wp.array(dtype=float)):
    t, c = wp.tid()
    x[t, c] *= gain[c]  # expect: inplace_op


@wp.kernel
def mix_down(x: wp.array2d(dtype=float), mix: wp.array(dtype=float)):
    t, c = wp.tid()
    wp.atomic_add(mix, t, x[t, c])


@wp.kernel
def spectral_loss(mix: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = wp.tid()
    d = mix[t] - ref[t]
    wp.atomic_add(loss, 0, d * d / float(mix.shape[0]))


freqs = wp.array([2.0, 3.0, 5.0, 7.0], dtype=float)
true_gain = np.array([0.8, 1.3, 0.5, 1.0], dtype=np.float32)
tt = np.arange(T)[:, None]
fr = np.array([2.0, 3.0, 5.0, 7.0])[None, :]
ref_np = ((np.sin(2 * np.pi * fr * tt / SR) + 0.3 * np.sin(6 * np.pi * fr * tt / SR)) * true_gain).sum(axis=1).astype(np.float32)
ref = wp.array(ref_np, dtype=float)

gain = wp.array([0.9, 1.1, 0.7, 1.2], dtype=float, requires_grad=True)
x = wp.zeros((T, C), dtype=float, requires_grad=True)
mix = wp.zeros(T, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(synth, dim=(T, C), inputs=[freqs, SR], outputs=[x])
    wp.launch(apply_gain, dim=(T, C), inputs=[x, gain])
    wp.launch(mix_down, dim=(T, C), inputs=[x], outputs=[mix])
    wp.launch(spectral_loss, dim=T, inputs=[mix, ref], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
gain_grad = gain.grad.numpy().copy()
print("loss", loss_value, "dgain", gain_grad)
