"""`tapewatch bisect`: the first horizon at which AD and FD diverge, with the numbers of every horizon tried."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from tapewatch.bisect import bisect, find_knob

PROGRAMS = Path(__file__).parent / "programs"


def test_bisection_names_the_first_diverging_step(tmp_path, python):
    script = tmp_path / "late_bug.py"
    shutil.copy(PROGRAMS / "late_bug.py", script)
    [f] = asyncio.run(bisect(str(script), python))
    assert f.code == "TW410" and f.data["knob"] == "STEPS"
    assert f.data["last_agreeing"] == 4 and f.data["first_divergent"] == 5
    assert "agree up to 4 steps and diverge at 5" in f.message
    tried = f.data["tried"]
    assert tried[4]["verdict"] == "agree" and tried[5]["verdict"] == "diverge" and tried[8]["verdict"] == "diverge"
    launch = 1 + next(i for i, line in enumerate(script.read_text().splitlines()) if "wp.launch(advance" in line)
    assert f.location.line == launch
    assert sorted(p.name for p in tmp_path.iterdir()) == ["late_bug.py"]  # no variant left behind


def test_the_horizon_is_found_or_named():
    source = "N = 4\nSTEPS = 60\nWIDTH = 100\nfor i in range(WIDTH):\n    pass\nfor s in range(STEPS):\n    f(s)\n"
    assert find_knob(source).name == "STEPS"
    assert find_knob(source, "WIDTH").name == "WIDTH"
    assert find_knob(source, "MISSING") is None
    assert find_knob("x = 1\n") is None
