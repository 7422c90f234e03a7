"""Finite differences inside the user's interpreter (stdlib, Warp and NumPy only).

- ``judge``: when a difference measures a derivative and when an adjoint fails it, for both checks;
- ``replay`` and ``fdcheck``: what a generated FD harness runs (``tapewatch harness`` writes the file,
  ``tapewatch/harness/``): the user's script replayed for every evaluation, and the gradient it
  consumes compared with central differences of its full objective (TW401/TW402).

The per-launch check (TW404) is ``probe/finite_diff.py``; it judges by the same rules.
"""
