"""Single-head self-attention layer fitted to a synthetic sequence task.

The attention logits are kept with retain_grad=True so their gradient can be
inspected after backward (saliency of each query/key pair); an entropy
monitor tracks how peaked the attention is.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

T = 8
D = 4
SCALE = 0.5  # 1 / sqrt(D)


@wp.kernel
def project_qkv(
    x: wp.array2d(dtype=float),
    Wq: wp.array2d(dtype=float),
    Wk: wp.array2d(dtype=float),
    Wv: wp.array2d(dtype=float),
    q: wp.array2d(dtype=float),
    k: wp.array2d(dtype=float),
    v: wp.array2d(dtype=float),
):
    t, j = wp.tid()
    aq = float(0.0)
    ak = float(0.0)
    av = float(0.0)
    for c in range(D):
        aq += Wq[j, c] * x[t, c]
        ak += Wk[j, c] * x[t, c]
        av += Wv[j, c] * x[t, c]
    q[t, j] = aq
    k[t, j] = ak
    v[t, j] = av


@wp.kernel
def attn_logits(q: wp.array2d(dtype=float), k: wp.array2d(dtype=float), scores: wp.array2d(dtype=float)):
    i, j = wp.tid()
    s = float(0.0)
    for c in range(D):
        s += q[i, c] * k[j, c]
    scores[i, j] = s * SCALE


@wp.kernel
def softmax_rows(scores: wp.array2d(dtype=float), probs: wp.array2d(dtype=float)):
    i = wp.tid()
    m = scores[i, 0]
    for j in range(1, T):
        m = wp.max(m, scores[i, j])
    denom = float(0.0)
    for j in range(T):
        denom += wp.exp(scores[i, j] - m)
    for j in range(T):
        probs[i, j] = wp.exp(scores[i, j] - m) / denom


@wp.kernel
def attend_mse(probs: wp.array2d(dtype=float), v: wp.array2d(dtype=float), y: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, c = wp.tid()
    o = float(0.0)
    for j in range(T):
        o += probs[i, j] * v[j, c]
    r = o - y[i, c]
    wp.atomic_add(loss, 0, r * r / float(T * D))


class SelfAttention:
    def __init__(self, flat):
        flat = np.asarray(flat, dtype=np.float32).reshape(3, D, D)
        self.Wq, self.Wk, self.Wv = (wp.array(flat[i], dtype=float, requires_grad=True) for i in range(3))
        self.q = wp.zeros((T, D), dtype=float, requires_grad=True)
        self.k = wp.zeros((T, D), dtype=float, requires_grad=True)
        self.v = wp.zeros((T, D), dtype=float, requires_grad=True)
        self.scores = wp.zeros((T, T), dtype=float, requires_grad=True, retain_grad=True)
        self.probs = wp.zeros((T, T), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.entropy_log = []

    def attention_entropy(self, recompute=True):
        """Mean row entropy of the attention; recomputes the logits from q, k by default."""
        if recompute:
            wp.launch(attn_logits, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])
        s = self.scores.numpy()
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        self.entropy_log.append(float(-(p * np.log(p + 1e-12)).sum(1).mean()))

    def forward(self, x, y):
        wp.launch(project_qkv, dim=(T, D), inputs=[x, self.Wq, self.Wk, self.Wv], outputs=[self.q, self.k, self.v])
        wp.launch(attn_logits, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])
        self.attention_entropy()  # expect: retain_grad
        wp.launch(softmax_rows, dim=T, inputs=[self.scores], outputs=[self.probs])
        wp.launch(attend_mse, dim=(T, D), inputs=[self.probs, self.v, y], outputs=[self.loss])

    def loss_and_grad(self, x, y):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            self.forward(x, y)
        tape.backward(self.loss)
        g = np.concatenate([w.grad.numpy().ravel() for w in (self.Wq, self.Wk, self.Wv)]).astype(np.float64)
        self.saliency = np.abs(self.scores.grad.numpy()).copy()
        tape.zero()
        return float(self.loss.numpy()[0]), g


def make_task(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, D)).astype(np.float32)
    # target: each token attends to its predecessor (cyclic shift), plus a mixing
    y = (np.roll(x, 1, axis=0) @ np.array([[0.5, 0.2, 0.0, 0.1], [0.0, 0.8, 0.1, 0.0], [0.3, 0.0, 0.6, 0.0],
                                           [0.0, 0.1, 0.0, 0.9]], np.float32)).astype(np.float32)
    return wp.array(x, dtype=float), wp.array(y, dtype=float)


PARAMS0 = np.random.default_rng(2).normal(0, 0.6, 3 * D * D)
_x, _y = make_task(0)


def evaluate(p):
    return SelfAttention(p).loss_and_grad(_x, _y)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        layer = SelfAttention(p)
        loss, g = layer.loss_and_grad(*make_task(it % 4))
        p -= 0.2 * g
        if it % 20 == 0:
            print(f"iter {it:2d} loss {loss:.4f} entropy {layer.entropy_log[-1]:.3f} max saliency {layer.saliency.max():.3e}")
