"""What the set's ground-truth scripts share: the set's folders, its programs, the interpreter.

Every evaluation set keeps its data in ``<set>/_verify/`` (``meta.py``: a sentence per program;
``fixes.py``: the one-line fix of every bug; the ``*.json`` results and ``*_log.txt`` logs these
scripts write; its own ``make_manifest.py``, since each set's MANIFEST says what it measured in its own
words); the scripts that measure are here, once.
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "driver.py")


class SetPaths:
    def __init__(self, folder: str):
        self.root = os.path.abspath(folder)
        if not os.path.isdir(self.root):
            sys.exit("no such set folder: %s" % folder)
        self.data = os.path.join(self.root, "_verify")
        os.makedirs(self.data, exist_ok=True)
        self.kcache = os.path.join(self.data, "_kcache")

    def programs(self, pattern: str = "[bc][0-9][0-9]_*.py", filters=()):
        progs = sorted(glob.glob(os.path.join(self.root, pattern.replace("[bc]", "b")))) + \
            (sorted(glob.glob(os.path.join(self.root, pattern.replace("[bc]", "c")))) if "[bc]" in pattern else [])
        if filters:
            progs = [p for p in progs if any(os.path.basename(p).startswith(f) for f in filters)]
        return progs

    def env(self, cache=None):
        return dict(os.environ, WARP_CACHE_PATH=cache or self.kcache, OMP_NUM_THREADS="1")


def arguments(doc: str):
    """``SET [name-prefix ...] [--python PY] [-j N]``."""
    parser = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    parser.add_argument("set", help="the set's folder (bench/accuracy/setNN)")
    parser.add_argument("prefixes", nargs="*", help="only the programs whose names start so (b03, c1)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter with Warp (default: this one)")
    parser.add_argument("-j", type=int, default=2, help="programs measured at once (default 2)")
    ns = parser.parse_args()
    return ns, SetPaths(ns.set)
