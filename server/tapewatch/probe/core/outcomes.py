"""Run outcomes that are not overwrites: the script raised, would not
compile, or the environment could not run it.  Each becomes a TW9xx finding
located where the user can act on it."""

from __future__ import annotations

import sys
import traceback
from typing import List, Optional

from ... import codes
from ...model import Finding, Location, Related
from . import user_code


def syntax_error(exc: SyntaxError, path: str) -> Finding:
    line = exc.lineno or 1
    column = exc.offset or 1
    return Finding(
        code="TW902",
        id="tw902",
        message="%s: %s" % (type(exc).__name__, exc.msg),
        location=Location(exc.filename or path, line, column),
        severity=codes.severity("TW902"),
    )


def script_raised(exc: BaseException, script: str) -> Finding:
    """Located at the innermost user frame of the traceback; the chain is related."""
    tb_frames = [(f, lineno) for f, lineno in traceback.walk_tb(exc.__traceback__)]
    user = [(f, lineno) for f, lineno in tb_frames if user_code.is_user_file(f.f_code.co_filename)]
    location: Optional[Location] = None
    related: List[Related] = []
    if user:
        inner, line = user[-1]
        location = Location(inner.f_code.co_filename, line, 1)
        for f, lineno in reversed(user[:-1]):
            related.append(Related(Location(f.f_code.co_filename, lineno, 1), "in `%s`" % f.f_code.co_name, "caller"))
    else:
        location = Location(script, 1, 1)
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return Finding(
        code="TW901",
        id="tw901",
        message="The script raised %s" % text,
        location=location,
        severity=codes.severity("TW901"),
        related=related,
        data={"exception": type(exc).__name__, "traceback": user_traceback(exc)},
    )


def user_traceback(exc: BaseException) -> str:
    """The traceback as ``python script.py`` would print it: probe frames dropped."""
    tb = exc.__traceback__
    while tb is not None and not user_code.is_user_file(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def print_user_traceback(exc: BaseException) -> None:
    sys.stderr.write(user_traceback(exc))
    sys.stderr.flush()
