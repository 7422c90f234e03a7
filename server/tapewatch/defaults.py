"""The one source of every run setting's default, for the CLI, the runner and the language server.

``tests/test_defaults.py`` checks these against ``contributes.configuration``
in the extension manifest (``package.json``), so the editor, the terminal and
CI start from the same values.  Stdlib only.
"""

DEVICE = "cpu"
TIMEOUT_S = 300.0  # a run is killed (its whole process tree) after this many seconds
# The per-launch adjoint check (TW404): measured at about 1.02x a run without it on the
# examples (bench/bench_launch_checks.py), so it is on everywhere.
CHECK_LAUNCHES = True
LINT = True  # static lints (TW3xx): in every run, and in the editor as you type
RUN_ON_SAVE = False
GRAPH = True
LIBRARY_FRAMES = False  # findings inside installed packages land on the user's call into them

# Setting name in the editor -> its default, as ``package.json`` must declare it.
EDITOR = {
    "device": DEVICE,
    "timeout": TIMEOUT_S,
    "checkLaunches": CHECK_LAUNCHES,
    "lint": LINT,
    "runOnSave": RUN_ON_SAVE,
}
