"""banco's build backend: a plain wheel of its own, setuptools only when it is needed.

`pip install .` builds in an isolated environment, and a static `requires = ["setuptools"]`
made every install fetch and unpack setuptools (and, before, mypy) to copy Python files into a
zip: most of the install's time beyond its dependencies' (issue 21: the install within 2x of
the dependencies alone).  So the default wheel is written here, from pyproject.toml, with the
standard library only (`write_wheel`: the packages and package data that pyproject lists, the
metadata, the console script, RECORD), and the build asks pip for nothing.  setuptools (and
mypy, pinned) is asked for and used only for what needs setup.py: the opt-in compiled build
(BANCO_COMPILE=1), an editable install (`pip install -e .`) and an sdist.
"""

from __future__ import annotations

import base64
import hashlib
import os
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SETUPTOOLS = "setuptools>=68"
MYPY = "mypy==2.4.1"  # pinned: a newer mypy may find new type errors, and mypyc stops then


def compile_wanted() -> bool:
    # the same test as setup.py's compile_wanted (setup.py cannot be imported: it runs setup())
    return os.environ.get("BANCO_COMPILE", "") not in ("", "0") and not os.environ.get("BANCO_PURE")


def _setuptools():
    from setuptools import build_meta  # only here: the default build has no setuptools

    return build_meta


def _with_setuptools() -> list[str]:
    return [SETUPTOOLS, MYPY] if compile_wanted() else [SETUPTOOLS]


# --- the default: a pure wheel written here ---------------------------------------------------

def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def wheel_files(config: dict) -> list[tuple[str, Path]]:
    """(path in the wheel, file) for every module of the packages pyproject lists and their
    package data, sorted."""
    tool = config["tool"]["setuptools"]
    found: dict[str, Path] = {}
    for package in tool["packages"]:
        folder = ROOT / package.replace(".", "/")
        for source in folder.glob("*.py"):
            found[source.relative_to(ROOT).as_posix()] = source
        for pattern in tool.get("package-data", {}).get(package, []):
            for data in folder.glob(pattern):
                if data.is_file():
                    found[data.relative_to(ROOT).as_posix()] = data
    return sorted(found.items())


def metadata(config: dict) -> str:
    p = config["project"]
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
             f"Summary: {p['description']}", f"Requires-Python: {p['requires-python']}",
             "Description-Content-Type: text/markdown"]
    lines += [f"Requires-Dist: {r}" for r in p.get("dependencies", [])]
    for extra, wanted in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in wanted]
    readme = (ROOT / p["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def dist_info(config: dict) -> dict[str, str]:
    p = config["project"]
    scripts = "".join(f"{name} = {target}\n" for name, target in p.get("scripts", {}).items())
    return {"METADATA": metadata(config),
            "WHEEL": "Wheel-Version: 1.0\nGenerator: banco build_backend\n"
                     "Root-Is-Purelib: true\nTag: py3-none-any\n",
            "entry_points.txt": f"[console_scripts]\n{scripts}"}


def _name(config: dict) -> str:
    p = config["project"]
    return f"{p['name']}-{p['version']}"


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def write_wheel(directory: str) -> str:
    """The pure wheel into `directory`: its file name."""
    config = project()
    name = _name(config)
    wheel = f"{name}-py3-none-any.whl"
    record = []
    # a fixed time: the same checkout gives the same wheel
    with zipfile.ZipFile(Path(directory) / wheel, "w", zipfile.ZIP_DEFLATED) as z:
        def put(path: str, data: bytes) -> None:
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            record.append(_record_line(path, data))

        for path, source in wheel_files(config):
            put(path, source.read_bytes())
        for file, text in dist_info(config).items():
            put(f"{name}.dist-info/{file}", text.encode("utf-8"))
        record.append(f"{name}.dist-info/RECORD,,")
        put_record = zipfile.ZipInfo(f"{name}.dist-info/RECORD", date_time=(1980, 1, 1, 0, 0, 0))
        put_record.external_attr = 0o644 << 16
        put_record.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(put_record, "\n".join(record) + "\n")
    return wheel


# --- the PEP 517 and PEP 660 hooks ------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return [SETUPTOOLS, MYPY] if compile_wanted() else []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None) -> str:
    if compile_wanted():
        return _setuptools().prepare_metadata_for_build_wheel(metadata_directory,
                                                              config_settings)
    config = project()
    folder = Path(metadata_directory) / f"{_name(config)}.dist-info"
    folder.mkdir(parents=True, exist_ok=True)
    for file, text in dist_info(config).items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    if compile_wanted():
        return _setuptools().build_wheel(wheel_directory, config_settings, metadata_directory)
    return write_wheel(wheel_directory)


def get_requires_for_build_editable(config_settings=None) -> list[str]:
    return _with_setuptools()


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None) -> str:
    return _setuptools().prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    return _setuptools().build_editable(wheel_directory, config_settings, metadata_directory)


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return [SETUPTOOLS]


def build_sdist(sdist_directory, config_settings=None) -> str:
    return _setuptools().build_sdist(sdist_directory, config_settings)
