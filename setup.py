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
LINK_FLAGS = []
if os.environ.get("ARDSEARCH_DEBUG"):
    C_FLAGS = ["-O0", "-g", "-UNDEBUG", "-DARD_DEBUG=1"]
# ARDSEARCH_SANITIZE=1: every extension (core, games, search) built with
# AddressSanitizer and UndefinedBehaviorSanitizer, and a UB report halts the
# process instead of printing and carrying on. Such modules only import with
# libasan preloaded: run them through tools/sanitize.sh (docs/sanitizers.md).
SANITIZE = os.environ.get("ARDSEARCH_SANITIZE", "0") not in ("", "0")
if SANITIZE:
    SANITIZERS = ["-fsanitize=address,undefined,float-cast-overflow", "-fno-sanitize-recover=all"]
    # -O1 keeps the build quick and the stacks readable; ARDSEARCH_DEBUG=1 too gives -O0.
    if not os.environ.get("ARDSEARCH_DEBUG"):
        C_FLAGS = ["-O1", "-g", "-UNDEBUG", "-fno-strict-aliasing", "-Wno-unused-function"]
    C_FLAGS = C_FLAGS + ["-fno-omit-frame-pointer"] + SANITIZERS
    LINK_FLAGS = SANITIZERS
# Development aid: ARDSEARCH_ONLY=core,ardennes,search builds just those
# extensions (the others keep whatever .so is already in place).
ONLY = {x for x in os.environ.get("ARDSEARCH_ONLY", "").split(",") if x}


def wanted(short):
    return not ONLY or short in ONLY


def cython_extensions():
    common = dict(include_dirs=[CSRC, numpy.get_include()], extra_compile_args=C_FLAGS,
                  extra_link_args=LINK_FLAGS,
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
        # #line directives under the sanitizers, so that reports name .pyx/.pxi lines
        emit_linenums=SANITIZE,
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
        extra_compile_args=C_FLAGS + ["-pthread"], extra_link_args=["-pthread"] + LINK_FLAGS,
    )]


# The bot roster lives in the top-level bots/ folder and installs as the
# package ardsearch.roster, so load_bot() finds it the same way installed or not.
setup(
    packages=find_packages(include=["ardsearch", "ardsearch.*"]) + ["ardsearch.roster"],
    package_dir={"ardsearch.roster": "bots"},
    package_data={
        "ardsearch.roster": ["*.toml"],
        "ardsearch.games": ["*/RULES.md", "*/*.toml", "*/scenarios/*.toml", "*/data/*.toml", "*/board.js", "*/board_*.js"],
        "ardsearch.web": ["static/*"],
    },
    # the C++ search first: its four sources compile one after the other, so
    # with build_ext -j it should start while the Cython modules build beside it
    ext_modules=search_extensions() + cython_extensions(),
)
