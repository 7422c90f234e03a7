"""The diagnostic catalogue: every code Tapewatch can report.

One entry per code: a short name, the default severity and a title.  Each
code has a page ``docs/diagnostics/<CODE>.md`` (tests check that every code
here has one).  Stdlib only: the probe imports it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, NamedTuple, Optional


class Code(NamedTuple):
    code: str
    name: str
    severity: str
    title: str


_ALL = [
    # TW1xx: overwrite tracking (runtime)
    Code("TW101", "launch-overwrites-read-array", "warning",
         "A taped launch writes an array that an earlier launch on the same tape read"),
    Code("TW102", "copy-overwrites-read-array", "warning",
         "wp.copy / wp.clone / array.assign writes an array that a launch on the same tape read"),
    Code("TW103", "zero-fill-overwrites-read-array", "warning",
         "zero_() / fill_() on an array that a launch on the same tape read"),
    Code("TW104", "intra-kernel-write-after-read", "warning",
         "A kernel writes an array argument after reading it"),
    Code("TW105", "launch-aliases-read-and-written-argument", "warning",
         "One launch passes the same array to an argument it reads and one it writes"),
    Code("TW106", "write-between-recording-and-backward", "warning",
         "An array the tape read is written after recording and before that tape's backward()"),
    Code("TW107", "warp-stale-read-flag", "information",
         "Warp's tracker warns about a read made on another tape: no gradient is affected"),
    # TW2xx: tape structure (runtime)
    Code("TW201", "requires-grad-chain-break", "warning",
         "A value with a gradient passes through an array allocated without requires_grad"),
    Code("TW202", "gradients-not-zeroed-between-steps", "warning",
         "A backward adds to gradients left by the previous one after the parameter changed (no tape.zero())"),
    Code("TW203", "retain-grad-multiple-writers", "warning",
         "An array with retain_grad=True is assigned by more than one taped launch: its gradient is counted twice"),
    Code("TW204", "seed-mismatch", "warning",
         "backward() is seeded differently from the objective the program uses (sum vs mean, a partial seed)"),
    Code("TW205", "gradient-read-before-backward", "warning",
         "A .grad is read after the tape started recording and before its backward(): a stale gradient"),
    Code("TW206", "atomic-result-not-replayed", "warning",
         "An atomic's return value is used in a differentiated kernel: the backward pass does not replay it"),
    Code("TW207", "gradient-truncated-across-tapes", "warning",
         "A tape continues from values an earlier, already differentiated tape computed: the gradient is truncated"),
    Code("TW208", "iteration-not-converged", "information",
         "A taped iteration stopped while its iterates were still moving: the gradient is the truncated map's"),
    Code("TW209", "accumulator-not-reset", "warning",
         "A taped launch accumulates into an array that still holds its previous iteration's sum (never zeroed)"),
    Code("TW210", "torch-seed-cleared-by-warp", "warning",
         "A PyTorch tensor given to Warp as a gradient seed (wp.from_torch) was cleared by Warp, and is seeded again"),
    Code("TW211", "torch-leaf-gradient-counted-twice", "warning",
         "wp.from_torch wraps a PyTorch leaf's .grad: Warp's backward and PyTorch both add the gradient"),
    Code("TW212", "torch-expanded-tensor-gradient", "warning",
         "wp.from_torch of an expand() view: its elements share one memory cell, and one gradient cell"),
    Code("TW213", "torch-returned-view-zeroed", "warning",
         "A torch.autograd.Function returns a wp.to_torch view of a gradient Warp zeroed first: PyTorch gets zeros"),
    Code("TW214", "torch-leaf-gradient-dropped", "warning",
         "Warp writes a PyTorch leaf's gradient into a .grad the leaf no longer holds (zero_grad set it to None)"),
    # TW3xx: static lints (no run)
    Code("TW301", "inplace-multiply-divide-in-kernel", "warning",
         "*= or /= on an array element inside a kernel is not differentiable"),
    Code("TW302", "vector-component-reassigned", "warning",
         "A component of a local vector/matrix is assigned more than once"),
    Code("TW303", "dynamic-loop-carried-value", "warning",
         "Multiplicative accumulation or a loop-computed local used after a dynamic loop"),
    Code("TW304", "where-with-overflowing-operand", "warning",
         "wp.where / wp.select evaluates and differentiates both operands"),
    Code("TW305", "backward-disabled", "warning",
         "enable_backward=False on a kernel or module used in a differentiated program"),
    Code("TW306", "overwrite-in-tape-block", "warning",
         "zero_() / fill_() / wp.copy onto an array inside a wp.Tape() block after a launch that reads it"),
    Code("TW307", "custom-adjoint-assigns", "warning",
         "A custom adjoint assigns wp.adjoint[x] instead of accumulating into it"),
    Code("TW308", "atomic-result-used", "warning",
         "An atomic's return value is used in differentiated code: the backward pass does not replay atomics"),
    # TW4xx: verification against finite differences (the FD harness)
    Code("TW400", "fd-check-passed", "information",
         "Autodiff agrees with finite differences of the full objective for a parameter"),
    Code("TW401", "fd-mismatch", "error",
         "Autodiff disagrees with finite differences of the full objective for a parameter"),
    Code("TW402", "fd-ratio-integer", "error",
         "Autodiff is an integer multiple of finite differences (double counting or a sum-vs-mean seed)"),
    Code("TW403", "nonfinite-gradient-origin", "error",
         "The first backward launch whose adjoint produced NaN/Inf gradients"),
    Code("TW404", "launch-adjoint-mismatch", "error",
         "A taped launch's adjoint disagrees with finite differences of the same launch"),
    Code("TW405", "launch-without-adjoint", "warning",
         "A launch of a kernel built with enable_backward=False is on a differentiated tape"),
    Code("TW406", "harness-incomplete", "error",
         "The FD harness cannot run until a value the script's structure does not give is filled in"),
    Code("TW407", "forward-diverged", "information",
         "The forward pass produced NaN/Inf before any gradient (a diverging simulation or optimization)"),
    Code("TW408", "loss-grows-each-step", "information",
         "The loss grows at every optimizer iteration: the step size is too large, not the gradient wrong"),
    Code("TW409", "fd-inconclusive", "information",
         "Finite differences cannot measure a parameter's gradient here (a kink, a jump, rounding noise)"),
    Code("TW410", "fd-diverges-at-step", "warning",
         "AD and finite differences agree up to k steps of the horizon and diverge at k+1 (tapewatch bisect)"),
    # TW9xx: the tool could not do its job
    Code("TW901", "script-raised", "error", "The script raised an exception"),
    Code("TW902", "script-syntax-error", "error", "The script is not valid Python"),
    Code("TW903", "warp-missing", "error", "Warp is not installed in the chosen interpreter"),
    Code("TW904", "device-unavailable", "error", "The chosen device is not available"),
    Code("TW905", "run-timed-out", "error", "The run did not finish within the timeout"),
    Code("TW906", "probe-crashed", "error", "The run ended without a result from the probe"),
    Code("TW907", "event-channel-garbage", "warning", "Unreadable data arrived on the event channel"),
    Code("TW908", "interpreter-unusable", "error", "The chosen Python interpreter cannot be started"),
    Code("TW909", "script-not-found", "error", "The script does not exist or cannot be read"),
    Code("TW910", "internal-error", "warning",
         "Something inside Tapewatch failed during the run: results may be incomplete"),
    Code("TW911", "file-not-linted", "error",
         "A file could not be read as Python (syntax error, encoding, NUL byte, too deep, not a file): not linted"),
    Code("TW912", "no-tape-recorded", "error",
         "The script ran to its end without recording a launch on a wp.Tape: nothing was verified"),
]

CODES: Dict[str, Code] = {c.code: c for c in _ALL}

# A static lint and the runtime finding that measures the same problem: when a run reports the
# runtime one on the lint's line, or with the lint's line among its related locations, the lint
# adds nothing (the run's finding is shown, once).
RUNTIME_TWINS: Dict[str, frozenset] = {
    "TW301": frozenset({"TW104"}),  # in-place *= / /=
    "TW304": frozenset({"TW403"}),  # a wp.where operand that overflows: measured as the NaN's origin
    "TW305": frozenset({"TW405"}),  # enable_backward=False: the run names the skipped launch (the option related)
    "TW306": frozenset({"TW102", "TW103"}),  # copy / zero_ / fill_ onto a read array in a tape block
    "TW307": frozenset({"TW404"}),  # a custom adjoint that assigns
    "TW308": frozenset({"TW206"}),  # an atomic's result used in differentiated code
}


def superseded(lint_code: str, runtime_codes) -> bool:
    """Whether a lint is the same problem as one of the runtime codes found on its line."""
    return bool(RUNTIME_TWINS.get(lint_code, frozenset()) & set(runtime_codes))


def get(code: str) -> Code:
    return CODES[code]


def severity(code: str) -> str:
    return CODES[code].severity


def tool_finding(code: str, message: str, location=None, **data):
    """A one-of-a-kind finding (a run outcome, a harness that cannot run):
    severity from the catalogue, the code as its id."""
    from .model import Finding  # noqa: PLC0415 (model imports codes: a cycle at module level)

    return Finding(code=code, message=message, location=location, severity=severity(code), id=code.lower(),
                   data=data)


def docs_dir() -> Optional[str]:
    """Where the catalogue pages live: $TAPEWATCH_DOCS, a source checkout, or the bundled copy."""
    env = os.environ.get("TAPEWATCH_DOCS")
    candidates = [env] if env else []
    here = os.path.dirname(os.path.abspath(__file__))
    candidates += [
        os.path.join(here, "..", "..", "docs", "diagnostics"),  # source checkout: server/tapewatch
        os.path.join(here, "docs", "diagnostics"),  # bundled next to the package
    ]
    for cand in candidates:
        if cand and os.path.isdir(cand):
            return os.path.normpath(cand)
    return None


_fixes: Dict[str, Optional[str]] = {}


def fix(code: str) -> Optional[str]:
    """One line on what to do, from the code's page (the first sentence of "Use instead")."""
    if code not in _fixes:
        _fixes[code] = _first_sentence_of(code, "## Use instead")
    return _fixes[code]


def _first_sentence_of(code: str, heading: str) -> Optional[str]:
    import re  # noqa: PLC0415

    base = docs_dir()
    if base is None:
        return None
    try:
        with open(os.path.join(base, code + ".md"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    start = text.find(heading)
    if start < 0:
        return None
    body = text[start + len(heading):].split("\n## ", 1)[0]
    paragraph = ""
    for block in body.strip().split("\n\n"):
        block = block.strip()
        if block and not block.startswith("```"):
            paragraph = " ".join(line.strip().lstrip("-* ").strip() for line in block.splitlines())
            break
    if not paragraph:
        return None
    sentence = re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0].strip()
    return sentence.rstrip(":") if len(sentence) <= 240 else sentence[:237].rstrip() + "..."


# The project's home, and its pages on the web: what a report read on another machine links to
# (SARIF's ``informationUri`` and each rule's ``helpUri``; a file: URI would point into the machine
# that ran the check).
HOMEPAGE = "https://github.com/tapewatch/tapewatch"


def doc_url(code: str) -> str:
    """The web address of a code's page (the catalogue's for a code Tapewatch does not know)."""
    page = code + ".md" if code in CODES else "README.md"
    return "%s/blob/main/docs/diagnostics/%s" % (HOMEPAGE, page)


def doc_uri(code: str) -> Optional[str]:
    base = docs_dir()
    if base is None:
        return None

    return Path(base, code + ".md").as_uri()
