"""Development tools for gametable (not shipped with the package)."""
