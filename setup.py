"""Builds the Cython hand evaluator (cext/) into ``pokerroom._evaluator``.

OpenMP is used when the compiler has it (gcc does) so the batch, enumeration
and equity loops run on every core; without it the same code runs serially.
Only portable flags are used: no ``-march=native``.
"""

import os
import subprocess
import sys
import tempfile

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup


def _compiler_has_openmp() -> bool:
    if sys.platform == "win32" or os.environ.get("POKERROOM_NO_OPENMP"):
        return False
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp.c")
        with open(src, "w") as f:
            f.write("#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n")
        try:
            done = subprocess.run([cc, "-fopenmp", src, "-o", os.path.join(tmp, "omp")],
                                  capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return False
        return done.returncode == 0


compile_args = ["-O3", "-fno-strict-aliasing"]
link_args = []
if _compiler_has_openmp():
    compile_args.append("-fopenmp")
    link_args.append("-fopenmp")

extensions = [
    Extension(
        "pokerroom._evaluator",
        ["cext/evaluator.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
