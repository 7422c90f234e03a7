"""Finite-difference harnesses: the ground truth for a script's gradient (the host's half).

- ``discover`` reads a script (and what its last run recorded) to find the
  parameters the optimizer updates and the loss the user differentiates;
- ``writer`` renders a harness file next to the script (never overwriting);
- ``generate`` is the one engine behind `tapewatch harness` and the editor's code action.

What a harness runs *inside the user's interpreter* (the replayer and the FD
check) is ``probe/fd/``; ``spawn.find_harness`` finds a script's harness.
``fdcheck`` here only keeps harness files written before that move importable.
"""
