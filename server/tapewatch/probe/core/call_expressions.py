"""The call expression a frame is executing, parsed from the user's source: its exact span (Python
3.11+ positions), its callee, and a launch's argument expressions in the kernel's order."""

from __future__ import annotations

import ast
import copy
import linecache
from typing import Dict, List, Optional, Sequence, Tuple

from ...warpsrc.source import callee, file_tree

_calls: Dict[str, List[ast.Call]] = {}
_by_span: Dict[str, Dict[tuple, ast.Call]] = {}  # file -> (line, end line, col, end col) -> call
_by_line: Dict[str, Dict[int, List[ast.Call]]] = {}  # file -> line -> calls spanning it
_positions: Dict[object, list] = {}  # code object -> the source span of each of its instructions
_resolved: Dict[tuple, Optional[ast.Call]] = {}  # (code, instruction, names) -> call
# Calls kept per cache above and in ``_segments``.  A site's call is asked for when a finding is
# made there (names, span), rarely later, and each kept call is a dozen AST nodes with their dicts
# and lists that every full collection of the collector walks: with thousands of distinct sites they
# were half the objects it walked.  Past the bound a cache starts afresh (a site asked for again is
# parsed again, ~25 us); a loop's sites stay cached in between.  What is asked for per launch (a
# launch's argument names, a call's span) is cached apart, as tuples of strings and numbers.
MAX_KEPT_CALLS = 256


def _calls_in(filename: str, module_globals=None) -> List[ast.Call]:
    """Every call in a file, parsed once, indexed by span and by line (cost is per file, not per event)."""
    if filename not in _calls:
        tree = file_tree(filename, module_globals)
        calls: List[ast.Call] = [n for n in ast.walk(tree) if isinstance(n, ast.Call)] if tree is not None else []
        _calls[filename] = calls
        spans: Dict[tuple, ast.Call] = {}
        by_line: Dict[int, List[ast.Call]] = {}
        for call in calls:
            spans.setdefault((call.lineno, call.end_lineno, call.col_offset, call.end_col_offset), call)
            for line in range(call.lineno, (getattr(call, "end_lineno", None) or call.lineno) + 1):
                by_line.setdefault(line, []).append(call)
        _by_span[filename] = spans
        _by_line[filename] = by_line
    return _calls[filename]


def _position(code, lasti: int) -> Optional[tuple]:
    """The source span of instruction ``lasti`` (Python 3.11+).

    The code object's positions are listed once and indexed: a module with
    thousands of launch lines asks for thousands of instructions of one code
    object, and scanning ``co_positions()`` each time was quadratic."""
    table = _positions.get(code)
    if table is None:
        positions = getattr(code, "co_positions", None)
        table = _positions[code] = list(positions()) if positions is not None else []
    pos = table[lasti // 2] if 0 <= lasti // 2 < len(table) else None
    return tuple(pos) if pos and pos[0] is not None else None


_segments: Dict[tuple, Optional[ast.Call]] = {}  # (file, span) -> the call parsed from that span alone


def _call_in_span(filename: str, pos: tuple, module_globals=None) -> Optional[ast.Call]:
    """The call whose source is exactly ``pos`` (line, end line, col, end col), parsed alone.

    Parsing a few characters per distinct call site instead of the whole file
    keeps a first lookup cheap in a module of thousands of lines, and stays
    cheaper with thousands of sites (~25 us a site; a 3,000-line module of
    launches takes ~150 ms to parse and ~50 ms to walk).  The call's
    own position is shifted back to the file's; its sub-expressions keep
    positions relative to the span (callers only unparse them: fixing every
    node cost more than the parse).  None when the span is not a whole call
    (the caller then parses the file)."""
    key = (filename, pos)
    if key in _segments:
        return _segments[key]
    found = None
    line, end_line, col, end_col = pos
    lines = linecache.getlines(filename, module_globals)
    if end_line is not None and col is not None and end_col is not None and 0 < line <= end_line <= len(lines):
        chunk = [text.encode("utf-8") for text in lines[line - 1:end_line]]
        chunk[-1] = chunk[-1][:end_col]
        chunk[0] = chunk[0][col:]
        parsed = _parse_call(b"".join(chunk), filename)
        if parsed is not None:
            # A copy per site: the text's parse is shared (unrolled code repeats one launch on many lines).
            found = copy.copy(parsed)
            found.lineno, found.end_lineno = line, end_line
            found.col_offset, found.end_col_offset = col, end_col
    if len(_segments) >= MAX_KEPT_CALLS:
        _segments.clear()
    _segments[key] = found
    return found


_parsed_text: Dict[bytes, Optional[ast.Call]] = {}  # a call's source text -> its parse (positions relative)


def _parse_call(text: bytes, filename: str) -> Optional[ast.Call]:
    if text in _parsed_text:
        return _parsed_text[text]
    try:
        tree = compile(text.decode("utf-8"), filename, "eval", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, UnicodeDecodeError):
        tree = None
    call = tree.body if isinstance(tree, ast.Expression) and isinstance(tree.body, ast.Call) else None
    if len(_parsed_text) >= MAX_KEPT_CALLS:
        _parsed_text.clear()
    _parsed_text[text] = call
    return call


def line_of(frame) -> int:
    """``frame.f_lineno``, from the code object's cached positions where Python has them.

    ``f_lineno`` decodes the line table from its start on every access, so in
    a module of thousands of lines each launch paid for all the lines above it."""
    pos = _position(frame.f_code, frame.f_lasti)
    return pos[0] if pos is not None else frame.f_lineno


def call_at(frame, names: Sequence[str] = ()) -> Optional[ast.Call]:
    """The call expression a frame is executing.

    Python 3.11+ gives the exact span of the current instruction; on older
    versions (or when that fails) the innermost call on the line whose
    function name is one of ``names`` is taken.  Cached per code object,
    instruction and names: a loop of launches costs one lookup.
    """
    key = (frame.f_code, frame.f_lasti, tuple(names))  # the instruction fixes the line
    if key in _resolved:
        return _resolved[key]
    filename = frame.f_code.co_filename
    found = None
    pos = _position(frame.f_code, frame.f_lasti)
    if pos is not None:
        found = _call_in_span(filename, pos, frame.f_globals)
        if found is None and _calls_in(filename, frame.f_globals):
            found = _by_span[filename].get(pos)
    if found is None and _calls_in(filename, frame.f_globals):
        line = frame.f_lineno
        best_end = 0
        for call in _by_line[filename].get(line, ()):
            end = getattr(call, "end_lineno", call.lineno) or call.lineno
            if not names or callee(call.func) in names:
                if found is None or (end - call.lineno) < (best_end - found.lineno):
                    found, best_end = call, end
    if len(_resolved) >= MAX_KEPT_CALLS:
        _resolved.clear()
    _resolved[key] = found
    return found


# (code, instruction, names) -> the span ``call_span`` gives: four numbers, which the collector does
# not track, so many more are kept than calls (a tape's graph locates every launch it holds).
_spans: Dict[tuple, Tuple[int, int, Optional[int], Optional[int]]] = {}
MAX_KEPT_SPANS = 1 << 16


def call_span(frame, names: Sequence[str] = ()) -> Tuple[int, int, Optional[int], Optional[int]]:
    """(line, column, end_line, end_column), 1-based, of the call a frame executes."""
    key = (frame.f_code, frame.f_lasti, tuple(names))
    span = _spans.get(key)
    if span is not None:
        return span
    call = call_at(frame, names)
    if call is None:
        span = (frame.f_lineno, 1, None, None)
    else:
        # Underline the callee and its arguments' first line, not a whole block.
        span = (call.lineno, call.col_offset + 1, call.end_lineno, (call.end_col_offset or 0) + 1)
    if len(_spans) < MAX_KEPT_SPANS:
        _spans[key] = span
    return span


def callee_name(call: ast.Call) -> str:
    """``launch`` for ``wp.launch(...)``, ``State`` for ``State(x)``."""
    return callee(call.func)


def launch_arg_exprs(call: ast.Call, total: Optional[int] = None) -> List[Optional[ast.expr]]:
    """Expressions for a launch's kernel arguments, in the kernel's order.

    ``wp.launch(kernel, dim, inputs=[...], outputs=[...])`` binds inputs then
    outputs to the kernel's parameters; a list we cannot see into (a
    variable) gives ``None`` entries.  Given the argument count (``total``),
    a written ``outputs=[...]`` after an opaque ``inputs=args`` still names
    the last parameters.
    """
    inputs = outputs = None
    if len(call.args) > 2:
        inputs = call.args[2]
    if len(call.args) > 3:
        outputs = call.args[3]
    for kw in call.keywords:
        if kw.arg == "inputs":
            inputs = kw.value
        elif kw.arg == "outputs":
            outputs = kw.value
    exprs: List[Optional[ast.expr]] = []
    for group in (inputs, outputs):
        if group is None:
            continue
        if isinstance(group, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in group.elts):
            exprs.extend(group.elts)
        elif group is inputs and isinstance(outputs, (ast.List, ast.Tuple)) and total is not None and \
                not any(isinstance(e, ast.Starred) for e in outputs.elts) and total >= len(outputs.elts):
            return [None] * (total - len(outputs.elts)) + list(outputs.elts)
        else:
            return exprs + [None] * 64  # opaque list: positions unknown from here on
    return exprs


def positional_arg(call: ast.Call, index: int, keyword: str) -> Optional[ast.expr]:
    if len(call.args) > index:
        return call.args[index]
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return None
