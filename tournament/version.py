"""The one place the app's version is written: pyproject.toml reads it (setuptools' dynamic version), the
wheel's `mcr-tournament --version` says it, GET /api/v1/version answers it and every page's footer shows it.
Imports nothing."""

__version__ = "0.1.0"
