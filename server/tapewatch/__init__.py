"""Tapewatch: find gradient bugs in NVIDIA Warp programs.

The package is split so that data flows one way:

- ``tapewatch.probe`` runs inside the user's interpreter (stdlib, Warp, NumPy
  only) and emits events;
- ``tapewatch.model`` and ``tapewatch.codes`` describe findings (stdlib only,
  shared by every other part);
- ``tapewatch.runner`` starts the probe and turns its events into a result;
- ``tapewatch.report``, ``tapewatch.cli`` and ``tapewatch.lsp`` present it.
"""

from . import bytecode as _bytecode

__version__ = "0.1.0"

_bytecode.ensure()  # before the package's own modules load: they load from it


def load_ipython_extension(ip) -> None:
    """``%load_ext tapewatch`` in IPython / Jupyter: the ``%%tapewatch`` cell magic (``tapewatch.notebook``,
    loaded only here: importing the package never imports IPython)."""
    from .notebook import load_ipython_extension as load  # noqa: PLC0415

    load(ip)


def unload_ipython_extension(ip) -> None:
    from .notebook import unload_ipython_extension as unload  # noqa: PLC0415

    unload(ip)
