"""The one place every probe sensor reports through.

``report(key, build)`` deduplicates (a repeat of the same key only counts),
assigns the id, and emits the finding the moment it is born.  ``build`` is
called only for a new key, so a sensor can afford rich messages without
paying for them on every repeat.

Failures inside Tapewatch never drop what the program did: ``attempt``
runs a naming or related-location step and, when it raises, records an
internal error (a visible TW910 finding with the traceback) and gives the
caller a fallback value, so the finding still goes out with raw names.

Array identity (which findings touch which array, for the tape graph) is
kept in a side table here; it never enters a finding's public data.
"""

from __future__ import annotations

import os
import traceback
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from ... import codes
from ...model import Finding, Location, Related
from . import user_code
from .warp_seams import CaptureInProgress

# Why a measurement did not happen inside a graph capture (the summary and the launch checks say it).
CAPTURE_REASON = ("inside a graph capture (launches there are recorded, not run: nothing can be read back "
                  "until the graph is launched)")

INTERNAL_ERROR = "TW910"
# Where the test suite collects internal errors (every test fails on one).
ERROR_LOG_ENV = "TAPEWATCH_PROBE_ERROR_LOG"


class FindingRegistry:
    def __init__(self, emit: Callable[..., None]):
        self.emit = emit
        self._by_key: Dict[Any, Finding] = {}
        self._arrays: Dict[int, List[str]] = {}  # id(array) -> finding ids (an array can have thousands)
        # A launch has one or two: a tuple, which the collector stops tracking (a list per launch
        # was one more object for every collection to walk).
        self._launches: Dict[int, Tuple[str, ...]] = {}  # launch number -> finding ids
        self._errors: Dict[tuple, Finding] = {}
        self.not_measured: Dict[Tuple[str, str], int] = {}  # (what, why) -> times
        self._born = 0  # findings numbered so far (ids stay unique across ``forget``)

    def forget(self) -> None:
        """Forget the findings reported so far, so that a repeat is reported anew: for a host that runs
        several programs one after another in one process (the fast tests: each test its own program)."""
        self._by_key.clear()
        self._arrays.clear()
        self._launches.clear()

    # ---------------------------------------------------------------- report
    def report(self, key, build: Union[Finding, Callable[[], Finding]], arrays: Iterable = (),
               launches: Iterable[int] = ()) -> Finding:
        """Count a repeat, or build, number and emit a new finding."""
        existing = self._by_key.get(key)
        if existing is not None:
            existing.count += 1
            return existing
        finding = build() if callable(build) else build
        _just_my_code(finding)
        self._born += 1
        finding.id = "f%d" % self._born
        if not finding.severity:
            finding.severity = codes.severity(finding.code)
        self._by_key[key] = finding
        for arr in arrays:
            if arr is not None:
                self._arrays.setdefault(id(arr), []).append(finding.id)
        for number in launches:
            if number is not None:
                self._launches[number] = self._launches.get(number, ()) + (finding.id,)
        self.emit("finding", finding=finding.to_json())
        return finding

    def bump(self, key) -> bool:
        """Count one more occurrence of a known finding; False when the key is new."""
        existing = self._by_key.get(key)
        if existing is None:
            return False
        existing.count += 1
        return True

    def replace(self, key, finding: Finding) -> Finding:
        """A finding that turned out worse than first reported (a harmless overwrite that now
        corrupts a gradient): same id, one more occurrence, emitted again (the event replaces it)."""
        old = self._by_key[key]
        finding.id = old.id
        finding.count = old.count + 1
        self._by_key[key] = finding
        self.emit("finding", finding=finding.to_json())
        return finding

    def revise(self, key, finding: Finding) -> Finding:
        """The same finding judged again (a measurement changed its severity): same id and count,
        emitted again (the event replaces it)."""
        old = self._by_key[key]
        finding.id = old.id
        finding.count = old.count
        self._by_key[key] = finding
        self.emit("finding", finding=finding.to_json())
        return finding

    def get(self, key) -> Optional[Finding]:
        return self._by_key.get(key)

    def __contains__(self, key) -> bool:
        return key in self._by_key

    def findings(self) -> List[Finding]:
        return list(self._by_key.values())

    def keyed(self, code: str) -> List[tuple]:
        """``(key, finding)`` of every finding with this code, for revising them."""
        return [(k, f) for k, f in self._by_key.items() if f.code == code]

    def for_array(self, arr) -> List[str]:
        return list(self._arrays.get(id(arr), ()))

    def for_launch(self, number: int) -> List[str]:
        return list(self._launches.get(number, ()))

    def counts(self) -> Dict[str, int]:
        out = {f.id: f.count for f in self._by_key.values()}
        out.update({f.id: f.count for f in self._errors.values()})
        return out

    # --------------------------------------------------------- degradation
    def attempt(self, what: str, step: Callable[[], Any], default: Any = None) -> Any:
        """Run one step of building a finding; on failure record it and use ``default`` (see ``call``)."""
        return self.call(what, step, default=default)

    def call(self, what: str, step: Callable[..., Any], *args, default: Any = None) -> Any:
        """``step(*args)``; on failure record it (TW910) and return ``default``.  Arguments are passed, not
        closed over: the sensor bus and the patch table call it several times per launch.

        A step that needed values inside a graph capture is not a failure: it is counted as not
        measured, with the reason (``not_measured``)."""
        try:
            return step(*args)
        except CaptureInProgress:
            self.skip(what, CAPTURE_REASON)
            return default
        except Exception as exc:
            self.internal_error(what, exc)
            return default

    def skip(self, what: str, reason: str) -> None:
        """Something the probe would have measured was not: counted per (what, why), told at exit."""
        key = (what, reason)
        self.not_measured[key] = self.not_measured.get(key, 0) + 1

    def skipped(self) -> List[dict]:
        """What was not measured, and why, for the ``not_measured`` event."""
        return [{"what": what, "reason": reason, "count": n} for (what, reason), n in self.not_measured.items()]

    def internal_error(self, what: str, exc: BaseException, location: Optional[Location] = None) -> Finding:
        """A TW910 finding: something inside Tapewatch failed, so results may be incomplete."""
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=12))
        origin = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        key = (what, type(exc).__name__, tuple((f.filename, f.lineno) for f in origin))
        _log(text)
        existing = self._errors.get(key)
        if existing is not None:
            existing.count += 1
            return existing
        finding = codes.tool_finding(
            INTERNAL_ERROR,
            "Internal error in Tapewatch while %s (%s: %s): results may be incomplete. "
            "Please report it with the traceback from the log." % (what, type(exc).__name__, _short(exc)),
            location=location, traceback=text, stage=what)
        finding.id = "tw910-%d" % (len(self._errors) + 1)
        self._errors[key] = finding
        self.emit("finding", finding=finding.to_json())
        return finding

    @property
    def internal_errors(self) -> int:
        return len(self._errors)


def _just_my_code(finding: Finding) -> None:
    """A finding located in an installed package (a Warp kernel, a library's @wp.func) moves to the first
    related location in the user's code; the library location stays, as a related location."""
    loc = finding.location
    if loc is None or user_code.is_user_file(loc.path):
        return
    for i, r in enumerate(finding.related):
        if r.location is not None and user_code.is_user_file(r.location.path):
            finding.location = r.location
            related = list(finding.related)
            related[i] = Related(loc, "in library code (the statement that %s)" % _what(finding.code), "library")
            finding.related = related
            finding.data = dict(finding.data, library_location=loc.to_json())
            return


def _what(code: str) -> str:
    return {"TW104": "writes after reading", "TW403": "is singular", "TW404": "disagrees",
            "TW206": "uses the atomic's result"}.get(code, "the finding is about")


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else "")[:200]


def _log(text: str) -> None:
    path = os.environ.get(ERROR_LOG_ENV)
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text.rstrip() + "\n---\n")
    except OSError:
        pass
