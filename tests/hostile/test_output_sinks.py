"""User-derived strings (file names, exception messages, baseline fields) reach each output escaped for it:
the terminal never receives a control character, SARIF never an unescaped bracket."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

KERNEL = '''\
import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=float), s: wp.array(dtype=float)):
    i = wp.tid()
    x[i] *= s[0]
'''

# Sets the window title, rings the bell, erases the line; an 8-bit CSI; a right-to-left override.
HOSTILE = "\x1b]0;pwned\x07\x1b[2K\x9b2J\u202e"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def tapewatch(*args, cwd, timeout=180):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", *args], cwd=str(cwd), capture_output=True,
                          text=True, timeout=timeout)


def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path):
    name = "k%s.py" % HOSTILE
    (tmp_path / name).write_text(KERNEL)
    out = tapewatch("lint", ".", cwd=tmp_path)
    assert out.returncode == 1
    assert not any(c in out.stdout + out.stderr for c in RAW), repr(out.stdout)
    assert "k\\x1b]0;pwned\\x07\\x1b[2K\\x9b2J\\u202e.py:7:5: warning TW301" in out.stdout


def test_exception_text_and_baseline_fields_are_escaped_in_the_terminal_and_in_sarif(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "boom.py").write_text(textwrap.dedent('''\
        import warp as wp
        raise RuntimeError(%r)
        ''' % ("bad %s see [here](https://evil.example/x) and ![i](https://evil.example/i.png)" % HOSTILE)))
    baseline = {"script": "boom.py", "time": "t%s" % HOSTILE, "findings": [{
        "code": "TW101", "severity": "warning", "message": "old %s" % HOSTILE, "path": "a%s.py" % HOSTILE,
        "line": 3, "related": [], "data": {"array": "q"}}]}
    (tmp_path / "base.json").write_text(json.dumps(baseline))
    text = tapewatch("check", "boom.py", "-q", "--no-check-launches", "--baseline", "base.json", cwd=tmp_path)
    assert "TW901" in text.stdout and "fixed TW101" in text.stderr, text.stdout + text.stderr
    assert not any(c in text.stdout + text.stderr for c in RAW), repr(text.stdout + text.stderr)
    assert "RuntimeError: bad \\x1b]0;pwned\\x07" in text.stdout
    assert "a\\x1b]0;pwned\\x07\\x1b[2K\\x9b2J\\u202e.py:3 old \\x1b" in text.stderr

    sarif = tapewatch("check", "boom.py", "-q", "--no-check-launches", "--no-evidence", "--format", "sarif",
                      cwd=tmp_path)
    [result] = [r for r in json.loads(sarif.stdout)["runs"][0]["results"] if r["ruleId"] == "TW901"]
    message = result["message"]["text"]
    assert "see \\[here\\](https://evil.example/x) and !\\[i\\](https://evil.example/i.png)" in message, message
    assert "[here]" not in message.replace("\\[here\\]", "")
