"""The gallery's programs and their markers, shared by the tests that run them.

``examples/gallery`` holds several programs per bug class and correct
look-alikes; ``# expect: TWnnn`` marks a warning or error, ``# note: TWnnn``
an information finding, ``# lint: TWnnn`` a static lint (see test_gallery).
``expect@cpu:`` / ``expect@cuda:`` hold on that device only, each with a
sentence why (a CPU array's ``.numpy()`` is a view, a CUDA array's a copy).
``# tapewatch-test: warp>=1.19`` keeps a program off the oldest Warp (graph
capture on the CPU came with 1.19); ``# tapewatch-test: cuda-only`` runs a
program in the CUDA tier only (streams exist on CUDA devices only).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import EXAMPLES, WARP_PYTHONS

GALLERY = EXAMPLES / "gallery"
PROGRAMS = sorted(p.name for p in GALLERY.glob("*.py") if not p.name.startswith("_"))
# ``expect[prog_a,prog_b]: TWnnn`` in a helper module: only for those programs; ``expect@cuda:`` on one device.
_MARK = re.compile(r"\b(expect|note|lint)(?:@(cpu|cuda))?(?:\[([\w,]+)\])?:\s*(TW\d{3})")
NEWEST_ONLY = "tapewatch-test: warp>=1.19"
CUDA_ONLY = "tapewatch-test: cuda-only"  # streams: run in the CUDA tier (test_cuda.py) only


def wanted(script: Path, device: str = "cpu"):
    """{(file, code, line)} for warnings/errors and for information, from the program and its helpers."""
    files = [script] + sorted(GALLERY.glob("_*.py"))
    imported = set(re.findall(r"^\s*(?:from|import)\s+(_\w+)", script.read_text(), re.M))
    marks = {"expect": set(), "note": set(), "lint": set()}
    for path in files:
        if path != script and path.stem not in imported:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for kind, on, only, code in _MARK.findall(line):
                if on and not device.startswith(on):
                    continue
                if not only or script.stem in only.split(","):
                    marks[kind].add((path.name, code, number))
    return marks


def shape(program: str) -> tuple:
    """What a program's run must show: its codes (not lines) and whether it checks launches."""
    marks = wanted(GALLERY / program)
    return (frozenset(c for _, c, _ in marks["expect"]), frozenset(c for _, c, _ in marks["note"]),
            "tapewatch-test: --check-launches" in (GALLERY / program).read_text())


def runs(programs=None, prefix="", one_per_shape=False):
    """``(python, program)`` params: every program on the newest Warp; on the oldest, the first program
    of each shape (every code and every check once), which keeps the version seams tested at a third of
    the cost. ``programs`` default to the gallery's; ``prefix`` is their path from ``examples/``; with
    ``one_per_shape``, the first program of each shape on the newest Warp too."""
    newest, *older = WARP_PYTHONS
    seen: set = set()  # shapes run on the oldest Warp
    seen_newest: set = set()  # with one_per_shape: shapes run on the newest
    for program in PROGRAMS if programs is None else programs:
        if CUDA_ONLY in (GALLERY / program).read_text():
            continue
        if not one_per_shape or shape(program) not in seen_newest:
            seen_newest.add(shape(program))
            yield pytest.param(newest.values[0], prefix + program, marks=newest.marks,
                               id="%s-%s" % (newest.id, program))
        if shape(program) in seen or NEWEST_ONLY in (GALLERY / program).read_text():
            continue
        seen.add(shape(program))
        for old in older:
            yield pytest.param(old.values[0], prefix + program, marks=old.marks, id="%s-%s" % (old.id, program))
