"""Warp kernel source, read one way by the probe and the lints.

Stdlib only (``ast``): the probe imports it inside the user's interpreter,
the lints in the editor's.  ``vocabulary`` says what Warp's builtins do
(which write, which are linear, which are singular where); ``source`` parses
a kernel's or function's text once and names the parts of a call or an
access path.
"""
