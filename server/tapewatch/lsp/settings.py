"""Settings (section ``tapewatch``), per workspace folder.

Sources, later ones winning key by key: the defaults;
``initializationOptions`` (``{"settings": {...}}`` or the bare object);
``workspace/didChangeConfiguration`` (``{"settings": {"tapewatch": {...}}}``);
and, when the client supports it, ``workspace/configuration`` pulled for the
whole window and for each workspace folder.  An invalid value is reported
with ``window/showMessage`` (and logged) and replaced by the default.

The server owns validation: clients pass the values through as the user
wrote them (the VS Code client only expands its variables first), so the
messages here are the only ones the user sees about a bad value.  Values
are quoted as JSON, the way the user wrote them in ``settings.json``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from lsprotocol import types

from .. import defaults
from . import uris
from .server import Feature, TapewatchServer

logger = logging.getLogger("tapewatch.lsp.settings")

SECTION = "tapewatch"
_DEVICE = re.compile(r"^[A-Za-z0-9_.:-]+$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Settings:
    interpreter: str = sys.executable
    device: str = defaults.DEVICE
    timeout: float = defaults.TIMEOUT_S
    cwd: Optional[str] = None
    args: Tuple[str, ...] = ()
    env: Dict[str, str] = field(default_factory=dict)
    run_on_save: bool = defaults.RUN_ON_SAVE
    lint: bool = defaults.LINT
    check_launches: bool = defaults.CHECK_LAUNCHES


def unwrap(options: Any) -> Dict[str, Any]:
    """The ``tapewatch`` section out of any of the accepted envelopes."""
    if not isinstance(options, dict):
        return {}
    if isinstance(options.get("settings"), dict):
        options = options["settings"]
    if isinstance(options.get(SECTION), dict):
        options = options[SECTION]
    return dict(options)


def _quoted(value: Any) -> str:
    """A value as the user wrote it in JSON (``"cuda 0"``, ``true``), not as Python prints it."""
    return json.dumps(value, ensure_ascii=False, default=repr)


def parse(raw: Dict[str, Any], folder: Optional[str] = None) -> Tuple[Settings, List[str]]:
    """Validate ``raw``; relative paths are resolved against ``folder``.

    Returns the settings and one line per invalid value (which fell back to
    its default).  ``None`` means "not set" and is never a problem.
    """
    problems: List[str] = []
    out: Dict[str, Any] = {}

    def bad(key: str, why: str) -> None:
        problems.append("tapewatch.%s: %s; using the default" % (key, why))

    def path(value: str) -> str:
        value = os.path.expanduser(value.strip())
        if folder and not os.path.isabs(value) and (os.sep in value or "/" in value):
            value = os.path.join(folder, value)
        return value

    value = raw.get("interpreter")
    if isinstance(value, str):
        if value.strip():
            out["interpreter"] = path(value)
    elif value is not None:
        bad("interpreter", "expected the path of a Python interpreter")

    value = raw.get("device")
    if isinstance(value, str) and _DEVICE.match(value.strip()):
        out["device"] = value.strip()
    elif value is not None and value != "":
        bad("device", "%s is not a device name such as \"cpu\" or \"cuda:0\"" % _quoted(value))

    value = raw.get("timeout")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        out["timeout"] = float(value)
    elif value is not None:
        bad("timeout", "expected a number of seconds greater than 0, got %s" % _quoted(value))

    value = raw.get("cwd")
    if isinstance(value, str):
        if value.strip():
            cwd = path(value)
            if folder and not os.path.isabs(cwd):
                cwd = os.path.join(folder, cwd)
            out["cwd"] = cwd
    elif value is not None:
        bad("cwd", "expected a folder path")

    value = raw.get("args")
    if isinstance(value, list) and all(isinstance(a, str) for a in value):
        out["args"] = tuple(value)
    elif value is not None:
        bad("args", "expected a list of strings")

    value = raw.get("env")
    if isinstance(value, dict):
        env = {}
        for name, item in value.items():
            if not isinstance(name, str) or not _ENV_NAME.match(name):
                problems.append("tapewatch.env: %s is not a variable name; left out" % _quoted(name))
            elif not isinstance(item, str):
                problems.append("tapewatch.env: %s must be a string; left out" % name)
            else:
                env[name] = item
        out["env"] = env
    elif value is not None:
        bad("env", "expected an object of strings")

    for key, attr in (("runOnSave", "run_on_save"), ("lint", "lint"), ("checkLaunches", "check_launches")):
        value = raw.get(key)
        if isinstance(value, bool):
            out[attr] = value
        elif value is not None:
            bad(key, "expected true or false")

    return Settings(**out), problems


class SettingsFeature(Feature):
    name = "settings"

    def __init__(self, server: TapewatchServer):
        super().__init__(server)
        self.pushed: Dict[str, Any] = {}  # initializationOptions, then didChangeConfiguration
        self.pulled_global: Dict[str, Any] = {}
        self.pulled_folders: Dict[str, Dict[str, Any]] = {}  # folder path key -> raw
        self._shown: set = set()

    # -- queries --------------------------------------------------------------

    def folder_of(self, path: Optional[str]) -> Optional[str]:
        """The workspace folder (path) holding ``path``, the innermost one."""
        if not path:
            return None
        best = None
        target = uris.key(path)
        try:
            folders = list(self.server.workspace.folders.values())
        except RuntimeError:  # before initialize
            return None
        for f in folders:
            fpath = uris.to_path(f.uri)
            if not fpath:
                continue
            fkey = uris.key(fpath)
            if target == fkey or target.startswith(fkey.rstrip(os.sep) + os.sep):
                if best is None or len(fkey) > len(uris.key(best)):
                    best = fpath
        return best

    def raw_for(self, folder: Optional[str]) -> Dict[str, Any]:
        raw = dict(self.pushed)
        raw.update({k: v for k, v in self.pulled_global.items() if v is not None})
        if folder is not None:
            raw.update({k: v for k, v in self.pulled_folders.get(uris.key(folder), {}).items() if v is not None})
        return raw

    def for_path(self, path: Optional[str]) -> Tuple[Settings, Optional[str]]:
        """Settings for a file (its folder's, else the window's) and that folder."""
        folder = self.folder_of(path)
        settings, _ = parse(self.raw_for(folder), folder)
        return settings, folder

    def for_uri(self, uri: Optional[str]) -> Tuple[Settings, Optional[str]]:
        return self.for_path(uris.to_path(uri) if uri else None)

    # -- sources --------------------------------------------------------------

    def initialize(self, params: types.InitializeParams) -> None:
        self.pushed = unwrap(params.initialization_options)
        self._report()

    async def initialized(self) -> None:
        await self.pull()

    def did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        pushed = unwrap(params.settings)
        if pushed or isinstance(params.settings, dict):
            self.pushed = pushed
        self._report()
        self.server.spawn(self.name, "workspace/configuration", self._pull_and_notify())

    async def _pull_and_notify(self) -> None:
        await self.pull()
        await self.server.settings_changed()

    async def pull(self) -> None:
        """Ask ``workspace/configuration`` for the window and each folder."""
        if not self.server.supports("workspace.configuration"):
            return
        folders = [f.uri for f in self.server.workspace.folders.values()]
        items = [types.ConfigurationItem(section=SECTION)]
        items += [types.ConfigurationItem(scope_uri=u, section=SECTION) for u in folders]
        try:
            result = await asyncio.wait_for(
                self.server.workspace_configuration_async(types.ConfigurationParams(items=items)), 10.0)
        except Exception as exc:  # noqa: BLE001 (a client that fails this request keeps the pushed settings)
            self.server.log("tapewatch: workspace/configuration failed: %s" % exc, types.MessageType.Warning)
            return
        result = list(result or [])
        self.pulled_global = _as_dict(result[0]) if result else {}
        pulled = {}
        for folder_uri, value in zip(folders, result[1:]):
            path = uris.to_path(folder_uri)
            if path:
                pulled[uris.key(path)] = _as_dict(value)
        self.pulled_folders = pulled
        self._report()

    def _report(self) -> None:
        """showMessage for each invalid value (once per distinct problem set)."""
        problems: List[str] = []
        _, p = parse(self.raw_for(None))
        problems += p
        for key_ in self.pulled_folders:
            _, p = parse(self.raw_for(key_))
            problems += [x for x in p if x not in problems]
        if not problems:
            self._shown = set()
            return
        fresh = [x for x in problems if x not in self._shown]
        self._shown = set(problems)
        for problem in fresh:
            logger.warning("%s", problem)  # kept in the log after the message is dismissed
        if fresh:
            self.server.show("Tapewatch settings: " + "; ".join(fresh), types.MessageType.Warning)


def _as_dict(value: Any) -> Dict[str, Any]:
    return unwrap(value) if isinstance(value, dict) else {}


def setup(server: TapewatchServer) -> SettingsFeature:
    feature = server.add_feature(SettingsFeature(server))

    @server.handle(feature.name, types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def _did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        feature.did_change_configuration(params)

    @server.handle(feature.name, types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def _did_change_folders(params: types.DidChangeWorkspaceFoldersParams) -> None:
        server.spawn(feature.name, "workspace/configuration", feature._pull_and_notify())

    return feature
