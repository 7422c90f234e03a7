# correct: the recurrent kernel updates its output element in place with *= and +=, but the factor of *= is a compile-time constant (no gradient needed for it) and += is differentiable.
"""A leaky-integrator recurrent network (6 independent neurons, fixed
readout) trained to reproduce a target waveform from a sine input: the input
and recurrent weights of each neuron are learned."""
import numpy as np
import warp as wp

wp.config.quiet = True

H = 6
T = 40
LEAK = wp.constant(0.8)
READOUT = np.array([0.5, -0.4, 0.3, 0.6, -0.2, 0.4], dtype=np.float32)
XS = np.sin(np.linspace(0.0, 4.0 * np.pi, T)).astype(np.float32)
TARGET = (0.6 * np.sin(np.linspace(0.0, 4.0 * np.pi, T) - 0.7) ** 3).astype(np.float32)
PARAMS0 = list(np.linspace(0.5, 1.5, H)) + list(np.linspace(-0.5, 0.5, H))


@wp.kernel
def leaky_step(h: wp.array(dtype=float), x: float, w_in: wp.array(dtype=float), w_rec: wp.array(dtype=float),
               h_out: wp.array(dtype=float)):
    i = wp.tid()
    h_out[i] = h[i]
    h_out[i] *= LEAK
    h_out[i] += (1.0 - LEAK) * wp.tanh(w_in[i] * x + w_rec[i] * h[i])


@wp.kernel
def readout_err(h: wp.array(dtype=float), ro: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0:
        y = float(0.0)
        for k in range(H):
            y += ro[k] * h[k]
        wp.atomic_add(loss, 0, (y - target) * (y - target))


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    w_in = wp.array(p[:H], dtype=float, requires_grad=True)
    w_rec = wp.array(p[H:], dtype=float, requires_grad=True)
    ro = wp.array(READOUT, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        h = wp.zeros(H, dtype=float, requires_grad=True)
        for t in range(T):
            hn = wp.zeros(H, dtype=float, requires_grad=True)
            wp.launch(leaky_step, dim=H, inputs=[h, float(XS[t]), w_in, w_rec], outputs=[hn])
            wp.launch(readout_err, dim=H, inputs=[hn, ro, float(TARGET[t])], outputs=[loss])
            h = hn
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([w_in.grad.numpy(), w_rec.grad.numpy()])


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(50):
        l, g = evaluate(p)
        p -= 0.1 * g
        if it % 10 == 0:
            print(f"iter {it} sequence loss {l:.4f}")
