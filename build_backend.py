"""banco's build backend: setuptools', asking for mypy only when the compiled build is wanted.

pip installs a project's build requirements before it runs setup.py, and a static
`requires = [..., "mypy"]` made every install fetch mypy (tens of MB) to compile nothing.  This
adds mypy to what pip installs into its isolated build environment only under BANCO_COMPILE=1
(setup.py, compile_wanted); everything else is setuptools.build_meta unchanged.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517 interface)

MYPY = "mypy==2.4.1"  # pinned: a newer mypy may find new type errors, and mypyc stops then


def compile_wanted() -> bool:
    # the same test as setup.py's compile_wanted (setup.py cannot be imported: it runs setup())
    return os.environ.get("BANCO_COMPILE", "") not in ("", "0") and not os.environ.get("BANCO_PURE")


def _requires(ask) -> list[str]:
    if not compile_wanted():
        return ask()
    # setuptools runs setup.py to collect its requirements, before mypy is installed: that run
    # must not try to compile, only the build after it
    wanted = os.environ.pop("BANCO_COMPILE")
    try:
        return ask() + [MYPY]
    finally:
        os.environ["BANCO_COMPILE"] = wanted


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return _requires(lambda: _setuptools.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings=None) -> list[str]:
    return _requires(lambda: _setuptools.get_requires_for_build_editable(config_settings))
