"""Attention-style pooling helpers whose reductions the tape records."""

import warp as wp


@wp.kernel
def exp_scores(logits: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    e[i] = wp.exp(logits[i])


@wp.kernel
def accumulate(values: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, values[i])


def normaliser(e, total):
    """The softmax denominator, summed by a kernel the tape records."""
    total.zero_()
    wp.launch(accumulate, dim=e.shape[0], inputs=[e], outputs=[total])
