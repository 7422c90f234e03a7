"""Train a tiny VAE whose encoder and decoder are differentiated as two stages.

The decoder/ELBO stage is recorded on its own tape from copies of the encoder
outputs; its input adjoints are then handed to the encoder tape.
"""

import numpy as np
import warp as wp

from _vae_parts import D_IN, decode_elbo, encode

wp.config.quiet = True

B = 6
BETA = 0.5


def data():
    rng = np.random.default_rng(11)
    z = rng.normal(size=(B, 2))
    x = np.tanh(z @ np.array([[0.8, -0.3, 0.5], [0.2, 0.9, -0.6]])) + 0.05 * rng.normal(size=(B, D_IN))
    eps = rng.normal(size=(B, 2))
    return wp.array(x.astype(np.float32), dtype=float), wp.array(eps.astype(np.float32), dtype=wp.vec2)


def unpack(p):
    p = np.asarray(p, dtype=np.float32)
    names = [("W_mu", 6), ("W_lv", 6), ("W_d", 6), ("b_d", 3)]
    out, off = {}, 0
    for name, n in names:
        out[name] = wp.array(p[off:off + n], dtype=float, requires_grad=True)
        off += n
    return out


def elbo_step(params, x, eps):
    mu = wp.zeros(B, dtype=wp.vec2, requires_grad=True)
    logvar = wp.zeros(B, dtype=wp.vec2, requires_grad=True)
    enc_tape = wp.Tape()
    with enc_tape:
        wp.launch(encode, dim=B, inputs=[x, params["W_mu"], params["W_lv"]], outputs=[mu, logvar])

    mu_in = wp.clone(mu)
    logvar_in = wp.clone(logvar)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    dec_tape = wp.Tape()
    with dec_tape:
        wp.launch(decode_elbo, dim=B,
                  inputs=[x, mu_in, logvar_in, eps, params["W_d"], params["b_d"], BETA, 1.0 / B], outputs=[loss])
    dec_tape.backward(loss)
    enc_tape.backward(grads={mu: mu_in.grad})  # expect: seeding
    g = np.concatenate([params[k].grad.numpy() for k in ("W_mu", "W_lv", "W_d", "b_d")]).astype(np.float64)
    return float(loss.numpy()[0]), g


PARAMS0 = np.random.default_rng(12).normal(0, 0.4, 21)


def evaluate(p):
    x, eps = data()
    return elbo_step(unpack(p), x, eps)


if __name__ == "__main__":
    x, eps = data()
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = elbo_step(unpack(p), x, eps)
        p -= 0.1 * g
        if it % 10 == 0:
            print(f"iter {it:2d} -elbo {loss:.4f}")
    print("final -elbo", loss)
