"""One engine behind `tapewatch harness` and the editor's code action."""

from __future__ import annotations

import subprocess
from typing import Optional, Sequence

from ..spawn import probe_pythonpath
from .discover import discover
from .writer import write

_FORM_PROBE = (
    "import inspect\n"
    "try:\n"
    "    import warp.autograd as a\n"
    "    print('gradcheck' if 'restore_inputs' in inspect.signature(a.gradcheck).parameters else 'central')\n"
    "except Exception:\n"
    "    print('auto')\n"
)


def harness_form(python: str, timeout: float = 60.0) -> str:
    """The form the user's Warp supports: ``gradcheck`` (restore_inputs) or ``central``."""
    try:
        out = subprocess.run([python, "-c", _FORM_PROBE], capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return "auto"
    form = out.stdout.strip().splitlines()[-1:] or ["auto"]
    return form[0] if form[0] in ("gradcheck", "central") else "auto"


def generate(script: str, python: str, out: Optional[str] = None, tapes: Sequence = (),
             form: Optional[str] = None) -> str:
    """Write a harness for ``script``; returns its path (a free name next to the script)."""
    plan = discover(script, tapes=tapes)
    return write(plan, form or harness_form(python), probe_pythonpath(), out)
