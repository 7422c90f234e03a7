"""``tapewatch bisect SCRIPT``: the first step at which autodiff and finite differences part.

Step 6 of NVIDIA's gradient-debugging guide: shorten the horizon until AD
and FD agree, then find the step where they first diverge.  The horizon is
a module-level integer constant the script loops over (``STEPS = 60`` used
in ``range(STEPS)``), found automatically or named with ``--knob``.  For a
horizon k the script is copied next to itself with ``STEPS = k``, an FD
harness is generated for the copy and run; the search halves the interval
between a horizon that agrees and one that does not.  Every horizon tried is
reported with its numbers; the finding sits on the launch inside the loop.
"""

from __future__ import annotations

import ast
import asyncio
import os
import re
from typing import Dict, List, Optional, Tuple

from . import codes
from .model import Finding, Location, Related

_PREFERRED = re.compile(r"step|frame|horizon|iter|substep|n_?t\b|num_t", re.I)


class Knob:
    def __init__(self, name: str, line: int, value: int, loop_line: Optional[int], launch_line: Optional[int]):
        self.name, self.line, self.value = name, line, value
        self.loop_line, self.launch_line = loop_line, launch_line


def find_knob(source: str, name: Optional[str] = None) -> Optional[Knob]:
    """A module-level ``NAME = <int>`` that a ``for ... in range(...NAME...)`` loop uses."""
    tree = ast.parse(source)
    constants: Dict[str, Tuple[int, int]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Constant) and type(node.value.value) is int and node.value.value > 0:
            constants[node.targets[0].id] = (node.lineno, node.value.value)
    loops: Dict[str, ast.For] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and getattr(node.iter.func, "id", "") == "range":
            for arg in node.iter.args:
                for sub in ast.walk(arg):
                    if isinstance(sub, ast.Name) and sub.id in constants:
                        loops.setdefault(sub.id, node)
    if name is not None:
        if name not in constants:
            return None
        candidates = [name]
    else:
        candidates = sorted(loops, key=lambda n: (not _PREFERRED.search(n), -constants[n][1]))
    for cand in candidates:
        line, value = constants[cand]
        loop = loops.get(cand)
        launch = None
        if loop is not None:
            for sub in ast.walk(loop):
                if isinstance(sub, ast.Call) and getattr(sub.func, "attr", getattr(sub.func, "id", "")) in (
                        "launch", "launch_tiled"):
                    launch = sub.lineno
                    break
            launch = launch or (loop.body[0].lineno if loop.body else loop.lineno)
        return Knob(cand, line, value, loop.lineno if loop else None, launch)
    return None


def variant(script: str, knob: Knob, k: int) -> str:
    """A copy of the script next to it (its imports still resolve) with the horizon set to ``k``."""
    with open(script, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    text = lines[knob.line - 1]
    lines[knob.line - 1] = re.sub(r"=\s*\d+", "= %d" % k, text, count=1)
    folder, name = os.path.split(os.path.abspath(script))
    path = os.path.join(folder, ".%s_tw_horizon_%d.py" % (os.path.splitext(name)[0], k))
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    return path


async def _fd_at(script: str, knob: Knob, k: int, python: str, timeout: Optional[float], device: str) -> dict:
    from .harness.generate import generate  # noqa: PLC0415
    from .runner import RunRequest, run_probe  # noqa: PLC0415

    path = variant(script, knob, k)
    harness = None
    try:
        # Off the event loop: generating inspects the script (a language server keeps serving meanwhile).
        loop = asyncio.get_running_loop()
        harness = await loop.run_in_executor(None, lambda: generate(path, python, out=path[:-3] + "_fdcheck.py"))
        result = await run_probe(RunRequest(script=harness, python=python, device=device, timeout=timeout,
                                            lint=False))
    finally:
        for p in (path, harness):
            if p and os.path.exists(p):
                os.remove(p)
    verdicts = [f for f in result.findings if f.code in ("TW400", "TW401", "TW402", "TW409")
                and f.data.get("parameter")]
    per_param: Dict[str, dict] = {}
    for f in verdicts:
        per_param.setdefault(f.data["parameter"], {"code": f.code, "max_abs_error": f.data.get("max_abs_error"),
                                                    "ratio": f.data.get("ratio")})
    if any(v["code"] in ("TW401", "TW402") for v in per_param.values()):
        verdict = "diverge"
    elif per_param and all(v["code"] == "TW400" for v in per_param.values()):
        verdict = "agree"
    else:
        problem = next((f.message for f in result.findings if f.code.startswith("TW9") or f.code == "TW406"), "")
        verdict = "unknown"
        per_param["_problem"] = {"message": problem}
    return {"k": k, "verdict": verdict, "parameters": per_param}


async def bisect(script: str, python: str, knob_name: Optional[str] = None, timeout: Optional[float] = 600.0,
                 on_step=None, device: str = "cpu") -> List[Finding]:
    with open(script, encoding="utf-8") as f:
        source = f.read()
    knob = find_knob(source, knob_name)
    if knob is None:
        return [codes.tool_finding("TW406", "bisect needs the horizon as a module-level integer constant that a "
                                   "`for ... in range(...)` loop uses (e.g. `STEPS = 60`)%s; none was found."
                                   % (" named `%s`" % knob_name if knob_name else ""), Location(script, 1, 1))]
    tried: Dict[int, dict] = {}

    async def at(k: int) -> str:
        if k not in tried:
            tried[k] = await _fd_at(script, knob, k, python, timeout, device)
            if on_step is not None:
                on_step(tried[k])
        return tried[k]["verdict"]

    full = await at(knob.value)
    if full == "unknown":
        return [_finding(script, knob, tried, None, "unknown")]
    if full == "agree":
        return [_finding(script, knob, tried, None, "agree")]
    lo, hi = 0, knob.value  # AD and FD agree at lo steps (0: trivially), diverge at hi
    if await at(1) != "agree":
        return [_finding(script, knob, tried, 1, "diverge")]
    lo = 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        verdict = await at(mid)
        if verdict == "agree":
            lo = mid
        elif verdict == "diverge":
            hi = mid
        else:
            break  # FD cannot judge there: report the interval found so far
    return [_finding(script, knob, tried, hi, "diverge", lo)]


def _finding(script: str, knob: Knob, tried: Dict[int, dict], first: Optional[int], kind: str,
             last_good: Optional[int] = None) -> Finding:
    table = "; ".join("%s=%d: %s (%s)" % (knob.name, k, t["verdict"], ", ".join(
        "%s err %.3g" % (p, v["max_abs_error"]) for p, v in t["parameters"].items()
        if not p.startswith("_") and v.get("max_abs_error") is not None) or "no numbers")
        for k, t in sorted(tried.items()))
    where = Location(script, knob.launch_line or knob.line, 1)
    related = [Related(Location(script, knob.line, 1), "the horizon `%s` (set to each value tried)" % knob.name,
                       "horizon")]
    if kind == "diverge":
        if first == 1:
            message = ("AD and finite differences disagree from the first step (`%s` = 1): the step itself is "
                       "wrong, not its accumulation over the horizon. Tried: %s." % (knob.name, table))
        else:
            message = ("AD and finite differences agree up to %d steps and diverge at %d (`%s`): the launch of "
                       "step %d is where to look (an overwrite, a carried state, a loop-carried value). Tried: %s."
                       % (last_good, first, knob.name, first, table))
        return Finding(code="TW410", message=message, location=where, severity=codes.severity("TW410"),
                       related=related, id="tw410", data={"knob": knob.name, "first_divergent": first,
                                                          "last_agreeing": last_good, "tried": tried})
    if kind == "agree":
        message = ("AD and finite differences agree over the whole horizon (`%s` = %d): nothing to bisect. "
                   "Tried: %s." % (knob.name, knob.value, table))
        return Finding(code="TW400", message=message, location=where, severity=codes.severity("TW400"),
                       related=related, id="tw410-agree", data={"knob": knob.name, "tried": tried})
    problem = tried[knob.value]["parameters"].get("_problem", {}).get("message", "")
    return codes.tool_finding("TW406", "bisect could not get an FD verdict at the full horizon: %s" % (
        problem or "the harness gave none"), where)
