"""User-derived text made safe for each sink it reaches (stdlib only; loads nothing else).

File names, messages (which quote exception text and the script's output),
kept runs from other people (baselines) are the user's.  Each sink has its
own rule:

- a terminal: control characters shown as escapes (``\\x1b``), never sent
  (``ESC]0;...BEL`` sets the window title, ``ESC[2K`` erases the line, the
  bidirectional overrides reorder what is shown);
- Markdown (the comparison of kept runs, rendered by the editor): in code
  spans, where nothing is a link, an image or HTML;
- SARIF ``message.text``: ``[`` and ``]`` escaped (SARIF 2.1.0 §3.11.6: a
  bracket that is not an embedded link must be), JSON does the rest;
- JSON: the encoder escapes every control character (and writes ASCII);
- the webview: text nodes only, under a strict CSP (``client-vscode``).
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL and C1 controls (8-bit CSI is 0x9b), zero-width characters
# and the bidirectional overrides and isolates that reorder what is shown ("Trojan source").
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff"
_CONTROL = re.compile("[%s]" % _CONTROLS)
_CONTROL_OR_NEWLINE = re.compile("[\n%s]" % _CONTROLS)


def _visible(match) -> str:
    code = ord(match.group())
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code


def terminal(text: object, newlines: bool = False) -> str:
    """``text`` safe to print: each control character shown as its escape (``\\x1b``), never sent.

    ``newlines``: keep line breaks (a multi-line message); otherwise they show as ``\\x0a``."""
    return (_CONTROL if newlines else _CONTROL_OR_NEWLINE).sub(_visible, str(text))


_BRACKET = re.compile(r"(\\*)([\[\]])")


def sarif_text(text: object) -> str:
    """A plain-text SARIF message: literal ``[`` / ``]`` escaped, and a backslash before one doubled."""
    return _BRACKET.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), str(text))


_BACKTICKS = re.compile("`+")


def markdown_code(text: object, table: bool = False) -> str:
    """``text`` as one Markdown code span: shown literally (no link, image, HTML or emphasis, and no
    autolink: renderers link bare URLs only in text), on one line, control characters visible.

    ``table``: inside a table cell, where ``|`` would end the cell even in a code span."""
    s = terminal(str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    if table:
        s = s.replace("|", "\\|")
    if not s.strip():
        return "(none)" if not s else "` `"
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(s)), default=0) + 1)
    pad = " " if s[0] in "` " or s[-1] in "` " else ""
    return fence + pad + s + pad + fence
