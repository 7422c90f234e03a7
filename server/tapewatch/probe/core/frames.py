"""Where in the user's code something happened, and what the user called it.

A finding's primary location is the innermost frame outside Warp and outside
Tapewatch: the ``wp.launch``/``wp.copy`` line the user must change.  The
frames above it (helper called from a training loop) become related
locations.  Array names come from the call expressions in those frames, so a
message says ``state.q`` or ``states[i + 1]`` rather than a kernel's
parameter label.
"""

from __future__ import annotations

import ast
import copy
import linecache
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

import runpy as _runpy

from ...installed import is_installed
from ...warpsrc.source import callee, file_tree, root_name

_TAPEWATCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_skip_prefixes: Tuple[str, ...] = (_TAPEWATCH_DIR + os.sep,)
# Before 3.11 runpy is a plain file of the standard library, not "<frozen runpy>".
_skip_files = {os.path.abspath(_runpy.__file__)} if getattr(_runpy, "__file__", None) else set()
_is_user: Dict[str, bool] = {}  # asked for every frame of every event: decided once per file
_is_library: Dict[str, bool] = {}  # the same for the library frames under a user's call


def _forget() -> None:
    """The rules changed: every file is decided again."""
    _is_user.clear()
    _is_library.clear()


def skip_package(path: str) -> None:
    """Treat frames from ``path`` (a package folder, e.g. Warp's) as not the user's."""
    global _skip_prefixes
    prefix = os.path.abspath(path) + os.sep
    if prefix not in _skip_prefixes:
        _skip_prefixes = _skip_prefixes + (prefix,)
        _forget()


def _library_prefixes() -> Tuple[str, ...]:
    """Installed packages and the standard library: code the user did not write."""
    import site  # noqa: PLC0415
    import sysconfig  # noqa: PLC0415

    paths: List[str] = []
    for getter in (getattr(site, "getsitepackages", None), getattr(site, "getusersitepackages", None)):
        try:
            found = getter() if getter is not None else []
        except Exception:
            found = []
        paths.extend([found] if isinstance(found, str) else found)
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            paths.append(sysconfig.get_paths()[key])
        except (KeyError, OSError):
            pass
    return tuple(sorted({os.path.abspath(p) + os.sep for p in paths if p}, key=len, reverse=True))


_library: Tuple[str, ...] = _library_prefixes()
_user_roots: Tuple[str, ...] = ()


def show_library_frames() -> None:
    """Treat installed packages as the user's (``--library-frames``): findings may land inside them."""
    global _library
    _library = ()
    _forget()


def user_root(path: str) -> None:
    """A folder of the user's (a test suite's root), even inside an installed package; a package Tapewatch
    skips (Warp) that lies inside it is still skipped."""
    global _user_roots
    _user_roots = _user_roots + (os.path.abspath(path) + os.sep,)
    _forget()


_user_files: frozenset = frozenset()


def user_script(path: str) -> None:
    """The script a run executes is the user's wherever it lives (NVIDIA's examples inside Warp's package),
    and so is its folder unless that folder is installed code (then only the script itself)."""
    global _user_files
    path = os.path.abspath(path)
    if path in _user_files:
        return
    _user_files = _user_files | {path}
    folder = os.path.dirname(path)
    if not is_installed(path):
        user_root(folder)
    _forget()


def _in_user_root(filename: str) -> bool:
    for root in _user_roots:
        if filename.startswith(root):
            # A skipped package inside the root (Warp under a root of site-packages) stays skipped.
            return not any(p.startswith(root) and filename.startswith(p) for p in _skip_prefixes)
    return False


def is_library_file(filename: str) -> bool:
    """An installed package or the standard library (not Warp's, not Tapewatch's)."""
    known = _is_library.get(filename)
    if known is None:
        known = _is_library[filename] = _decide_library_file(filename)
    return known


def _decide_library_file(filename: str) -> bool:
    if not filename or filename.startswith("<") or filename.startswith(_skip_prefixes):
        return False
    if filename in _user_files or _in_user_root(filename):
        return False
    if not _library:
        return False  # --library-frames: installed packages are the user's
    return filename.startswith(_library) or is_installed(filename)


def is_user_file(filename: str) -> bool:
    known = _is_user.get(filename)
    if known is None:
        known = _is_user[filename] = _decide_user_file(filename)
    return known


def _decide_user_file(filename: str) -> bool:
    if not filename or filename.startswith("<"):
        return False  # <frozen runpy>, <string>, <stdin>...
    if filename in _user_files:
        return True
    if filename.startswith(_skip_prefixes[0]) or filename in _skip_files:
        return False  # Tapewatch itself, runpy
    if _in_user_root(filename):
        return True
    if filename.startswith(_skip_prefixes):
        return False
    return not is_library_file(filename)


def innermost_library_frame(start=None):
    """The library frame a user call led into, if the innermost foreign frame is a library's."""
    frame = start if start is not None else sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if is_library_file(name):
            return frame
        if is_user_file(name):
            return None
        frame = frame.f_back
    return None


def user_frames(start=None, limit: int = 12) -> list:
    """User frames, innermost first, up to ``limit`` of them."""
    frame = start if start is not None else sys._getframe(1)
    out: list = []
    while frame is not None and len(out) < limit:
        if is_user_file(frame.f_code.co_filename):
            out.append(frame)
        frame = frame.f_back
    return out


def innermost_user_frame(start=None):
    frame = start if start is not None else sys._getframe(1)
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return None


def api_called(start=None) -> Optional[str]:
    """Name of the outermost Warp function below the innermost user frame.

    That is the API the user called: ``assign`` or ``clone`` when those
    delegate to ``copy``.
    """
    frame = start if start is not None else sys._getframe(1)
    name = None
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return name
        if not frame.f_code.co_filename.startswith(_TAPEWATCH_DIR):
            name = frame.f_code.co_name
        frame = frame.f_back
    return name


# ---------------------------------------------------------------------------
# Call expressions


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


def user_expression(expr: Optional[ast.expr], frames: list) -> Optional[str]:
    """The name the user wrote, followed through helper parameters.

    If the launch is in ``def step(s_in, s_out)`` and passes ``s_out.q``, and
    the caller wrote ``step(a, b)``, the answer is ``b.q``: the name in the
    frame the user reads.
    """
    if expr is None:
        return None
    for depth, frame in enumerate(frames):
        outer = _outer_expression(expr, frame, frames[depth + 1] if depth + 1 < len(frames) else None)
        if outer is None:
            break
        expr = outer
    if isinstance(expr, ast.Name):
        return expr.id  # what ast.unparse gives, without its visitor (one per launch argument)
    if isinstance(expr, ast.Constant) or (isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant)):
        return None  # a number is never an array's name (a helper's parameter followed to a literal)
    return ast.unparse(expr) if hasattr(ast, "unparse") else None


def caller_expression(text: str, frame, caller) -> Optional[str]:
    """``text``, an expression written in ``frame``, as ``caller`` wrote it (``x_next`` for ``dst`` of
    ``def step(src, dst)`` called as ``step(x, x_next)``), or None where it is not the caller's."""
    try:
        expr = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    outer = _outer_expression(expr, frame, caller)
    return ast.unparse(outer) if outer is not None else None


def _outer_expression(expr: ast.expr, frame, caller) -> Optional[ast.expr]:
    """``expr`` (written in ``frame``) as the caller wrote it, or None to stop there."""
    root = root_name(expr)
    if root is None or caller is None:
        return None
    code = frame.f_code
    param = _param_position(code, root.id)
    if param is None or root.id in _stored_names(code):
        return None  # a parameter the function rebinds (``c = c_next`` in a loop) is the caller's only at first
    # ``states[s + 1]`` means nothing outside the frame that defines ``s``.
    others = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n is not root}
    if others & set(code.co_varnames):
        return None
    caller_call = call_at(caller, (code.co_name,))
    if caller_call is None or callee(caller_call.func) != code.co_name:
        return None
    if param == 0 and code.co_varnames[:1] in (("self",), ("cls",)) and isinstance(caller_call.func, ast.Attribute):
        return _replace_root(expr, caller_call.func.value)  # obj.method(): ``self`` is ``obj``
    if code.co_varnames[:1] in (("self",), ("cls",)) and isinstance(caller_call.func, ast.Attribute):
        param -= 1  # obj.method(a, b): ``self`` is bound implicitly
    if param >= code.co_argcount:
        return _keyword_argument(caller_call, root.id, expr)  # keyword-only
    outer = _bound_argument(caller_call, param, root.id)
    return _replace_root(expr, outer) if outer is not None else None


def _keyword_argument(call: ast.Call, name: str, expr: ast.expr) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return _replace_root(expr, kw.value)
    return None


def _replace_root(expr: ast.expr, new_root: ast.expr) -> ast.expr:
    if isinstance(expr, ast.Name):
        return new_root

    expr = copy.copy(expr)
    assert isinstance(expr, (ast.Attribute, ast.Subscript))  # root_name walked through these
    expr.value = _replace_root(expr.value, new_root)
    return expr


_STORES: Dict[object, frozenset] = {}  # code object -> the local names it assigns
MAX_STORE_CODES = 1 << 12


def _stored_names(code) -> frozenset:
    """Locals a function assigns (``STORE_FAST``), read once per code object from its bytecode."""
    names = _STORES.get(code)
    if names is None:
        import dis  # noqa: PLC0415  (only when a launch is named through a helper)

        names = frozenset(ins.argval for ins in dis.get_instructions(code) if ins.opname == "STORE_FAST")
        if len(_STORES) >= MAX_STORE_CODES:
            _STORES.clear()
        _STORES[code] = names
    return names


def _param_position(code, name: str) -> Optional[int]:
    nparams = code.co_argcount + code.co_kwonlyargcount
    params = code.co_varnames[:nparams]
    if name not in params:
        return None
    return params.index(name)


def _bound_argument(call: ast.Call, position: int, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position < 0 or any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    if position < len(call.args):
        return call.args[position]
    return None


def name_by_identity(obj, frame=None) -> Optional[str]:
    """Fallback naming: a local bound to ``obj``, one attribute or item deep, in ``frame`` (by default
    the innermost user frame)."""
    frame = frame if frame is not None else innermost_user_frame(sys._getframe(1))
    if frame is None:
        return None
    try:
        items = list(frame.f_locals.items())
    except Exception:
        return None
    for name, value in items:
        if value is obj:
            return name
    for name, value in items:
        if isinstance(value, (list, tuple)) and len(value) <= 4096:
            for i, item in enumerate(value):
                if item is obj:
                    return "%s[%d]" % (name, i)
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            try:
                attrs = vars(value)
            except TypeError:
                continue
            for attr, item in attrs.items():
                if item is obj:
                    return "%s.%s" % (name, attr)
    return None
