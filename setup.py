"""Native extensions: the generic Cython core, one Cython engine per game, and
the pybind11 search module. Everything else is declared in pyproject.toml."""
import glob
import os
import sys

import numpy
from Cython.Build import cythonize
from pybind11.setup_helpers import Pybind11Extension
from setuptools import Extension, find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join("csrc")
# -O3 and no -march=native: wheels must run on any x86-64/aarch64 machine.
C_FLAGS = ["-O3", "-fno-strict-aliasing", "-Wno-unused-function"]
if os.environ.get("ARDSEARCH_DEBUG"):
    C_FLAGS = ["-O0", "-g", "-UNDEBUG", "-DARD_DEBUG=1"]
# Development aid: ARDSEARCH_ONLY=core,ardennes,search builds just those
# extensions (the others keep whatever .so is already in place).
ONLY = {x for x in os.environ.get("ARDSEARCH_ONLY", "").split(",") if x}


def wanted(short):
    return not ONLY or short in ONLY


def cython_extensions():
    common = dict(include_dirs=[CSRC, numpy.get_include()], extra_compile_args=C_FLAGS,
                  define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
    exts = []
    if wanted("core"):
        exts.append(Extension("ardsearch._core", ["ardsearch/_core.pyx"], **common))
    for pyx in sorted(glob.glob("ardsearch/games/*/_engine.pyx")):
        game = os.path.basename(os.path.dirname(pyx))
        if wanted(game):
            exts.append(Extension(f"ardsearch.games.{game}._engine", [pyx], **common))
    if not exts:
        return []
    return cythonize(
        exts,
        include_path=[CSRC, "ardsearch"],
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True,
                             "initializedcheck": False, "embedsignature": True},
    )


def search_extensions():
    if not wanted("search"):
        return []
    sources = sorted(glob.glob("csrc/ardsearch/search/*.cpp"))
    return [Pybind11Extension(
        "ardsearch._search", sources, include_dirs=[CSRC], cxx_std=17,
        # the headers too, so that editing one rebuilds the module
        depends=sorted(glob.glob("csrc/ardsearch/search/*.h") + glob.glob("csrc/ardsearch/*.h")),
        extra_compile_args=C_FLAGS + ["-pthread"], extra_link_args=["-pthread"],
    )]


# The bot roster lives in the top-level bots/ folder and installs as the
# package ardsearch.roster, so load_bot() finds it the same way installed or not.
setup(
    packages=find_packages(include=["ardsearch", "ardsearch.*"]) + ["ardsearch.roster"],
    package_dir={"ardsearch.roster": "bots"},
    package_data={
        "ardsearch.roster": ["*.toml"],
        "ardsearch.games": ["*/RULES.md", "*/*.toml", "*/scenarios/*.toml", "*/data/*.toml", "*/board.js"],
        "ardsearch.web": ["static/*"],
    },
    ext_modules=cython_extensions() + search_extensions(),
)
