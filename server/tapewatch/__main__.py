"""``python -m tapewatch`` serves the language server (``tapewatch lsp``);
with arguments it is the CLI."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["lsp"]))
