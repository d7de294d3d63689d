"""Builds the compiled roll-outs of the DIRT expected-time sweep (designer/systems/dirt/_kernels.pyx).

Everything else is in pyproject.toml. The extension is optional: where it cannot be built (no C compiler), the
package installs without it and the sweep runs the same arithmetic in numpy, slower.
"""
from Cython.Build import cythonize
from setuptools import Extension, setup

kernels = Extension(
    "designer.systems.dirt._kernels",
    ["designer/systems/dirt/_kernels.pyx"],
    # no fused multiply-add: every product and sum rounded as numpy rounds it, so both give the same numbers
    extra_compile_args=["-O2", "-ffp-contract=off"],
    optional=True,
)

setup(ext_modules=cythonize([kernels], language_level=3, quiet=True))
