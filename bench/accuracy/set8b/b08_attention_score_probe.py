"""Fit the query/key/value projections of one attention head to a teacher head.

The attention-score buffer keeps its gradient (retain_grad) so that the
per-score sensitivities can be inspected after each step.
"""

import numpy as np
import warp as wp

from _attention import D, T, attn_apply, attn_scores, mse2d, project

wp.config.quiet = True


class Head:
    def __init__(self, p):
        p = np.asarray(p, dtype=np.float32)
        self.Wq = wp.array(p[0:9], dtype=float, requires_grad=True)
        self.Wk = wp.array(p[9:18], dtype=float, requires_grad=True)
        self.Wv = wp.array(p[18:27], dtype=float, requires_grad=True)
        self.q = wp.zeros((T, D), dtype=float, requires_grad=True)
        self.k = wp.zeros((T, D), dtype=float, requires_grad=True)
        self.v = wp.zeros((T, D), dtype=float, requires_grad=True)
        self.scores = wp.zeros((T, T), dtype=float, requires_grad=True, retain_grad=True)
        self.out = wp.zeros((T, D), dtype=float, requires_grad=True)

    def params(self):
        return [self.Wq, self.Wk, self.Wv]

    def forward(self, x, probe=False):
        wp.launch(project, dim=(T, D), inputs=[x, self.Wq], outputs=[self.q])
        wp.launch(project, dim=(T, D), inputs=[x, self.Wk], outputs=[self.k])
        wp.launch(project, dim=(T, D), inputs=[x, self.Wv], outputs=[self.v])
        wp.launch(attn_scores, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])
        if probe:
            self.entropy = self.attention_entropy()
        wp.launch(attn_apply, dim=(T, D), inputs=[self.scores, self.v], outputs=[self.out])
        return self.out

    def attention_entropy(self):
        wp.launch(attn_scores, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])  # expect: retain_grad
        s = self.scores.numpy().astype(np.float64)
        a = np.exp(s - s.max(axis=1, keepdims=True))
        a /= a.sum(axis=1, keepdims=True)
        return float(-(a * np.log(a)).sum(axis=1).mean())


def tokens():
    rng = np.random.default_rng(7)
    return wp.array(rng.normal(size=(T, D)).astype(np.float32), dtype=float)


def teacher_output(x):
    rng = np.random.default_rng(8)
    teacher = Head(rng.normal(0, 0.8, 27))
    return wp.array(teacher.forward(x).numpy(), dtype=float)


def step(head, x, y):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        out = head.forward(x, probe=True)
        wp.launch(mse2d, dim=(T, D), inputs=[out, y, 1.0 / (T * D)], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([w.grad.numpy() for w in head.params()]).astype(np.float64)
    return float(loss.numpy()[0]), g, head.entropy, tape


PARAMS0 = np.random.default_rng(9).normal(0, 0.5, 27)


def evaluate(p):
    x = tokens()
    return step(Head(p), x, teacher_output(x))[:2]


if __name__ == "__main__":
    x = tokens()
    y = teacher_output(x)
    head = Head(PARAMS0)
    for it in range(40):
        loss, g, ent, tape = step(head, x, y)
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.5f} attention entropy {ent:.3f} |dL/dscores| {np.abs(head.scores.grad.numpy()).max():.4f}")
        for w in head.params():
            w.assign(w.numpy() - 0.3 * w.grad.numpy())
        tape.zero()
    print("final loss", loss)
