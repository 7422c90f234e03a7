"""One module per TW3xx rule.  Each exposes ``CODE`` and ``check(ctx) -> iterable of Finding``."""
