"""Attention-style pooling helpers: a softmax denominator summed by `wp.utils.array_sum`."""

import warp as wp


@wp.kernel
def exp_scores(logits: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    e[i] = wp.exp(logits[i])


def normaliser(e, total):
    """The softmax denominator: the sum of the exponentiated scores, into ``total``."""
    wp.utils.array_sum(e, out=total)  # expect: TW207

