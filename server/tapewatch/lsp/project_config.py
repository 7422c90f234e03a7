"""The project's ``[tool.tapewatch]`` table (``pyproject.toml``) for the documents in the editor.

The command line and the pytest plugin read it; the editor must agree with them: a file the
table excludes gets no lints, a code it ignores is never shown, whether it came from a lint or
a run.  An invalid table is shown once (``window/showMessage``) and the defaults apply, as the
command line does with an error.  Lookups are cached by the ``pyproject.toml`` files' times, so
a lint per keystroke costs a few ``stat`` calls, and an edited table applies at the next lint.
"""

from __future__ import annotations

import os
from typing import Dict, Tuple

from .. import config as configuration
from .server import Feature, TapewatchServer


class ProjectConfigFeature(Feature):
    name = "project_config"

    def __init__(self, server: TapewatchServer):
        super().__init__(server)
        # folder of a document -> (the pyproject.toml files above it with their times, the result)
        self._cache: Dict[str, Tuple[tuple, configuration.Config]] = {}
        self._shown: set = set()  # problems already shown

    def for_path(self, path: str) -> configuration.Config:
        """The configuration for the document at ``path`` (the defaults when the table is invalid)."""
        folder = os.path.dirname(os.path.abspath(path))
        stamp = _stamp(folder)
        known = self._cache.get(folder)
        if known is not None and known[0] == stamp:
            return known[1]
        config, problem = configuration.for_editor(path)
        if problem is not None and problem not in self._shown:
            self._shown.add(problem)
            self.server.show(problem)
        elif problem is None:
            self._shown.clear()  # fixed: breaking it again shows it again
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[folder] = (stamp, config)
        return config


def _stamp(folder: str) -> tuple:
    """Every ``pyproject.toml`` from ``folder`` up, with its modification time: the cache's key."""
    out = []
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        try:
            out.append((candidate, os.stat(candidate).st_mtime_ns))
        except OSError:
            pass
        parent = os.path.dirname(folder)
        if parent == folder:
            return tuple(out)
        folder = parent


def setup(server: TapewatchServer) -> ProjectConfigFeature:
    feature = ProjectConfigFeature(server)
    server.add_feature(feature)
    return feature
