"""What Warp's own overwrite tracker prints for a script, to check Tapewatch ⊇ Warp.

The script runs under plain Warp with ``verify_autograd_array_access`` on
(no probe), and every warning the tracker emits is parsed into a
``WarpWarning``; ``missing_from(findings)`` lists those no finding of a
probe run of the same script accounts for.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import List, NamedTuple, Optional

_RUNNER = (
    "import runpy, sys, warp as wp\n"
    "wp.config.verify_autograd_array_access = True\n"
    "script = sys.argv[1]\n"
    "sys.argv = sys.argv[1:]\n"
    "sys.path[0] = __import__('os').path.dirname(script)\n"
    "runpy.run_path(script, run_name='__main__')\n"
)
# The array's contents may span lines; what follows "passed to argument" is on one (a lazy ``.+?``
# across lines would pair one warning's argument with a later warning's tail).
_LAUNCH = re.compile(r"passed to argument (\S+) in kernel (\S+) at ([^\n]+?):(\d+) is being written to but")
_OTHER = re.compile(r"is being written to by ([^\n]+?) at ([^\n]+?):(\d+) but has already been read")
_BARE = re.compile(r"is being written to but has already been read from in a previous launch", re.S)
_INTRA = re.compile(r"passed to argument (\S+) in kernel (\S+) at ([^\n]+?):(\d+) is being written to after")
# An atomic after a read: Warp names only the array.
_INTRA_BARE = re.compile(r"Array (\S+) is being written to after it has been read from within the same kernel")


class WarpWarning(NamedTuple):
    kind: str  # "launch", "copy", "intra"
    argument: Optional[str]
    kernel: Optional[str]
    path: Optional[str] = None  # the kernel's file, where Warp names it

    def explained_by(self, f) -> bool:
        data = f.data or {}
        if self.kind == "intra":
            return (f.code == "TW104" and data.get("argument") == self.argument
                    and self.kernel in (None, data.get("kernel")))
        if self.kind == "copy":
            return f.code in ("TW102", "TW107")
        names = {data.get("argument"), data.get("written_argument")}
        kernels = {data.get("operation"), data.get("kernel")}
        return f.code in ("TW101", "TW105", "TW107") and self.argument in names and self.kernel in kernels


def warnings_of(python: str, script: Path, timeout: float = 300) -> List[WarpWarning]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([python, "-c", _RUNNER, str(script)], cwd=str(script.parent), env=env,
                          capture_output=True, text=True, timeout=timeout)
    text = proc.stdout + proc.stderr
    out = set()
    for m in _LAUNCH.finditer(text):
        out.add(WarpWarning("launch", m.group(1), _short(m.group(2))))
    for m in _INTRA.finditer(text):
        out.add(WarpWarning("intra", m.group(1), _short(m.group(2)), m.group(3)))
    for m in _INTRA_BARE.finditer(text):
        out.add(WarpWarning("intra", m.group(1), None))
    if _OTHER.search(text) or (_BARE.search(text) and "passed to argument" not in text):
        out.add(WarpWarning("copy", None, None))
    return sorted(out, key=lambda w: tuple(str(part) for part in w))


def _short(kernel: str) -> str:
    """Warp names kernels by key, mangled for closures (``make.<locals>.k``); findings use the def name."""
    return kernel.split(".")[-1].split("_")[0] if "<locals>" in kernel else kernel


def missing_from(warnings: List[WarpWarning], findings, launched=None) -> List[WarpWarning]:
    """The warnings no finding explains.  With ``launched`` (the names of the kernels the run launched): a
    codegen warning about a kernel of an installed package (Warp's own) that the program never launched is
    not the program's code, and Tapewatch leaves it out."""
    from tapewatch.installed import is_installed

    def ours(w: WarpWarning) -> bool:
        return not (launched is not None and w.kind == "intra" and w.path and is_installed(w.path)
                    and w.kernel not in launched)

    return [w for w in warnings if ours(w) and not any(w.explained_by(f) for f in findings)]
