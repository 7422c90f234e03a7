"""Parsing a file one top-level chunk at a time, reusing the chunks an edit did not touch.

In the editor a file is linted again after every pause in typing, and
``ast.parse`` of the whole file is half the cost of a lint.  An edit almost
always touches one top-level definition, so ``ChunkParser`` splits the text
into top-level statements (a ``def`` with its decorators, an import, a
``with`` block...) and parses only the chunks whose text it has not seen;
the others come from its cache, their line numbers moved to where the chunk
now starts.  The result is the module ``ast.parse`` would give.

Chunks are cut at lines that start in column 0 with something that can
start a statement; a cut that splits a statement (a decorator and its
``def``, a string or bracket spanning a column-0 line, ``else:``) fails to
parse and is merged with the next chunk, at most ``MAX_MERGES`` times: a
chunk still unparsed then (an unclosed bracket, a very long string) makes
the parser parse the whole file instead, so a broken file costs one parse
more, never a parse per cut to its end.  A file that does not parse as a
whole raises ``SyntaxError`` from a full parse, with the usual message.

Lines end where Python ends them (``\n``, ``\r\n``, ``\r``), not where
``str.splitlines`` does (form feeds, ``\u2028``...).
"""

from __future__ import annotations

import ast
import io
import threading
from typing import Dict, List, Optional, Tuple

from .memo import FunctionMemo

# Lines that continue a statement, never start one, even in column 0.
_CONTINUATIONS = ("else", "elif", "except", "finally")
MAX_CACHED = 4096  # chunks kept per parser (one open file holds one per top-level statement)
MAX_MERGES = 64  # cuts merged into a chunk that does not parse before the whole file is parsed instead


def source_lines(source: str) -> List[str]:
    """The lines of ``source`` as Python's tokenizer ends them (``\n``, ``\r\n``, ``\r``), ends kept."""
    return io.StringIO(source, newline="").readlines()


class _Chunk:
    __slots__ = ("body", "first_line", "located", "spanned")

    def __init__(self, body: List[ast.stmt], first_line: int):
        self.body = body
        self.first_line = first_line  # the line its nodes are numbered from now
        # Every node with a position, and those with an end too, for moving the chunk without a
        # walk per move (a line inserted above moves every later chunk: tens of thousands of nodes).
        self.located = [n for stmt in body for n in ast.walk(stmt) if hasattr(n, "lineno")]
        self.spanned = [n for n in self.located if getattr(n, "end_lineno", None) is not None]

    def move_to(self, first_line: int) -> None:
        delta = first_line - self.first_line
        if delta:
            for n in self.located:
                n.lineno += delta
            for n in self.spanned:
                n.end_lineno += delta
            self.first_line = first_line


class ChunkParser:
    """``parse(source)``: the module's AST, re-parsing only chunks whose text changed."""

    def __init__(self) -> None:
        self._cache: Dict[str, _Chunk] = {}
        self._unparsable: set = set()  # chunk texts that did not parse on their own last time
        self.lock = threading.Lock()  # the cached nodes are moved in place: one parse (and its use) at a time
        self.parsed_chunks = 0  # chunks parsed by the last call (the rest were reused)
        # The kernel rules' findings per function, for the nodes this parser hands back unchanged.
        self.memo = FunctionMemo()

    def parse(self, source: str, path: str = "<unknown>") -> ast.Module:
        lines = source_lines(source)
        spans = _candidate_starts(lines)
        used: Dict[str, _Chunk] = {}
        failed = set()  # cuts that split a statement (a decorator without its def): merged, never reparsed
        body: List[ast.stmt] = []
        self.parsed_chunks = 0
        i = 0
        while i < len(spans):
            start = spans[i]
            j = i + 1
            while True:
                end = spans[j] if j < len(spans) else len(lines)
                text = "".join(lines[start:end])
                chunk = self._lookup(text, used)
                if chunk is None and (text in failed or text in self._unparsable):
                    failed.add(text)  # kept for the next parse too: known not to parse on its own
                elif chunk is None:
                    parsed = _try_parse(text)
                    if parsed is not None:
                        self.parsed_chunks += 1
                        chunk = _Chunk(parsed, 1)
                        if text not in used:
                            used[text] = chunk
                    else:
                        failed.add(text)
                if chunk is not None:
                    chunk.move_to(start + 1)
                    body.extend(chunk.body)
                    i = j
                    break
                if j >= len(spans) or j - i >= MAX_MERGES:
                    # The whole file: its own SyntaxError, or a statement spanning many cuts.
                    return ast.parse(source, filename=path)
                j += 1
        self._cache = used if len(used) <= MAX_CACHED else {}
        self._unparsable = failed if len(failed) <= MAX_CACHED else set()
        return ast.Module(body=body, type_ignores=[])

    def _lookup(self, text: str, used: Dict[str, _Chunk]) -> Optional[_Chunk]:
        if text in used:
            return None  # the same text twice in one file: each occurrence needs its own nodes
        chunk = self._cache.get(text)
        if chunk is not None:
            used[text] = chunk
        return chunk


def _candidate_starts(lines: List[str]) -> List[int]:
    """Indices of lines that may start a top-level statement (the first line always does)."""
    starts = [0] if lines else []
    for n, line in enumerate(lines):
        if n > 0 and starts_statement(line):
            starts.append(n)
    return starts


def starts_statement(line: str) -> bool:
    """Whether a line may start a top-level statement: column 0 (after form feeds, which Python
    takes as whitespace that resets the indentation), not a comment, a closing bracket or ``else:``."""
    line = line.lstrip("\x0c")
    if not line or line[0] in " \t\r\n\x0b#)]}":
        return False
    words = line.split(None, 1)
    return bool(words) and words[0].rstrip(":") not in _CONTINUATIONS


def _try_parse(text: str) -> Optional[List[ast.stmt]]:
    try:
        return ast.parse(text).body
    except (SyntaxError, ValueError):
        return None


def chunk_count(source: str) -> Tuple[int, int]:
    """(candidate cuts, lines): for tests and the benchmark."""
    lines = source_lines(source)
    return len(_candidate_starts(lines)), len(lines)
