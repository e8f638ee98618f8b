"""The wheel carries what the app reads at run time besides its Python modules: the project's templates/,
static/ and migrations/ (at the project root in a checkout, where `make run` reads them) are copied into the
package as tournament/_bundled/ when a wheel is built (`make wheel`); the compiled catalogues (.mo) and the
fan engine's data are package data already (pyproject.toml). Everything else is in pyproject.toml.

An editable install (`make install`, `make run`) copies nothing: tournament.config.site_folder reads the
checkout's own folders."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("templates", "static", "migrations")
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo", ".*")


class BuildWithSiteFiles(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "tournament" / "_bundled"
        for name in BUNDLED:
            if (target / name).exists():
                shutil.rmtree(target / name)
            shutil.copytree(ROOT / name, target / name, ignore=LEFT_OUT)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            target = Path(self.build_lib) / "tournament" / "_bundled"
            outputs += [str(path) for path in sorted(target.rglob("*")) if path.is_file()]
        return outputs


setup(cmdclass={"build_py": BuildWithSiteFiles})
