"""Static lints (TW3xx): gradient bugs visible in the source of a Warp program, without running it.

``lint_source(source, path)`` is the whole public API; ``ChunkParser``
(pass one per open file as ``parser=``) makes linting the next version of
a file re-parse only the top-level chunks that changed.  It parses once with
the standard library's ``ast``, never executes or imports anything, never
raises, and returns ``[]`` for text that is not Python (the language server
reports syntax errors itself).

How it is put together (data flows down):

- ``names``     import aliases -> canonical Warp names (``wp.vec3`` -> ``warp.vec3``)
- ``chunks``    parsing by top-level chunk, unchanged chunks reused
- ``context``   one parse + one module walk: Warp functions, structs,
                constants, module options, tapes, differentiation sites
- ``kernels``   which functions Warp compiles, and their array parameters
- ``body``      one walk per Warp function, indexing what kernel rules need
- ``loops``     static (unrolled) vs dynamic loops, as Warp decides
- ``vectypes``  vector/matrix/quaternion constructors
- ``rules/``    one module per code (TW301 ... TW306)
- ``registry``  the rule list, each rule isolated from the others' failures
- ``findings``  AST node -> ``Finding`` with an exact range; ``# noqa`` handling

A finding is silenced by ``# noqa`` (all codes) or ``# noqa: TW305`` on its
first line.
"""

from __future__ import annotations

import gc
import logging
from typing import List, Optional

from tapewatch.model import Finding

from . import context, findings, registry
from .chunks import ChunkParser

__all__ = ["lint_source", "RULE_CODES", "ChunkParser"]

RULE_CODES = tuple(registry.codes())

_log = logging.getLogger(__name__)


def lint_source(source: str, path: str, parser: Optional[ChunkParser] = None) -> List[Finding]:
    """All TW3xx findings for ``source`` (the text of the file at ``path``)."""
    if parser is None:
        return _lint(source, path, None)
    with parser.lock:  # its cached nodes are renumbered in place by each parse
        return _lint(source, path, parser)


def _lint(source, path, parser: Optional[ChunkParser]) -> List[Finding]:
    # Parsing allocates tens of thousands of nodes, which triggers the cyclic
    # garbage collector several times per call for nothing (an AST has no
    # cycles to find); pausing it makes a lint ~25% faster and steadier.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        if isinstance(source, (bytes, bytearray)):
            try:
                source = bytes(source).decode("utf-8")
            except UnicodeDecodeError:
                return []  # binary, not Python
        if not isinstance(source, str) or ("wp" not in source and "warp" not in source):
            return []  # nothing Warp can be in it: skip the parse
        memo = parser.memo if parser is not None else None
        if memo is not None:
            memo.begin()
        ctx = context.parse(source, path if isinstance(path, str) else str(path), parser)
        if ctx is None:
            return []
        result = findings.finalize(ctx.src, registry.run_rules(ctx, memo=memo))
        if memo is not None:
            memo.end()
        # Free the tree while the collector is still paused: otherwise the
        # first allocation after re-enabling it scans all those live nodes.
        del ctx
        return result
    except Exception:  # noqa: BLE001 - the API promise: a lint never takes the caller down
        _log.exception("lint failed on %s", path)
        return []
    finally:
        if gc_was_enabled:
            gc.enable()
