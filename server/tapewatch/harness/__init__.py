"""Finite-difference harnesses: the ground truth for a script's gradient.

- ``discover`` reads a script (and what its last run recorded) to find the
  parameters the optimizer updates and the loss the user differentiates;
- ``writer`` renders a harness file next to the script (never overwriting);
- ``replay`` and ``fdcheck`` run *inside the user's interpreter* (stdlib,
  Warp, NumPy only): they re-run the user's own script for every
  evaluation and compare the gradient it consumes with central differences
  of its full objective.
"""
