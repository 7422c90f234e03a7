"""Harness files written before the FD check moved import it by this name: it is ``probe/fd/fdcheck``."""

import sys

from ..probe.fd import fdcheck

sys.modules[__name__] = fdcheck
