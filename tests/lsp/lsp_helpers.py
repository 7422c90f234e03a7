"""Helpers for the language-server tests (see conftest.py for the fixtures)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RUN = "tapewatch.runVerification"

# The server is started as `python -m tapewatch lsp` from a checkout.
_server_dir = str(ROOT / "server")
if _server_dir not in os.environ.get("PYTHONPATH", "").split(os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [_server_dir, os.environ.get("PYTHONPATH")]))


async def initialize(client: LanguageClient, settings: Optional[Dict[str, Any]] = None,
                     folder: Path = ROOT, spec: str = "visual-studio-code") -> types.InitializeResult:
    return await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(spec),
        root_uri=folder.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)],
        initialization_options={"settings": settings or {}},
    ))


def open_doc(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="python", version=version, text=path.read_text(encoding="utf-8"))))
    return uri


def change(client: LanguageClient, uri: str, version: int, start: tuple, end: tuple, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=start[0], character=start[1]),
                              end=types.Position(line=end[0], character=end[1])),
            text=text)]))


async def run(client: LanguageClient, uri: str, token: Any = None, msg_id: Optional[str] = None) -> dict:
    """tapewatch.runVerification; returns the summary as a dict."""
    if token is not None:
        client.progress_reports.setdefault(token, [])
    params = types.ExecuteCommandParams(command=RUN, arguments=[uri], work_done_token=token)
    result = await client.protocol.send_request_async(types.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)
    return as_dict(result)


def as_dict(value: Any) -> Any:
    """pygls hands custom JSON over as namedtuples ("Object"): back to dicts."""
    if hasattr(value, "_asdict"):
        return {k: as_dict(v) for k, v in value._asdict().items()}
    if isinstance(value, dict):
        return {k: as_dict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_dict(v) for v in value]
    return value


def diagnostics(client: LanguageClient, uri: str) -> List[types.Diagnostic]:
    return list(client.diagnostics.get(uri, []))


def lines_of(diags, code: Optional[str] = None) -> List[int]:
    """1-based lines of the diagnostics (optionally of one code)."""
    return sorted(d.range.start.line + 1 for d in diags if code is None or d.code == code)


async def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met within %.1fs" % timeout)
        await asyncio.sleep(interval)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as dead)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][:1] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def markers(path: Path) -> Dict[str, List[int]]:
    """``# expect: TW101`` / ``# reader`` / ``# alloc: x`` ... comments → {marker: [lines]}: the probe tests' reading."""
    from conftest import markers as read

    return read(path)


def run_diagnostics(client: LanguageClient, uri: str) -> List[types.Diagnostic]:
    """The diagnostics of verification runs (not static lints)."""
    return [d for d in diagnostics(client, uri) if (d.data or {}).get("kind") == "run"]
