"""Editor tests: Neovim and Emacs run docs/editors.md's configs against the
real server (a package, so its conftest and module names stay apart)."""
