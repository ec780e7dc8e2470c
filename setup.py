"""Build of mojifix's optional compiled kernels (everything else is declared in pyproject.toml).

``mojifix._kernels`` is a C extension marked optional: when no C compiler is found or the compile fails,
the build goes on without it and the package runs its pure-Python reference (``mojifix._native``; ``mojifix
--version`` says which is active). See docs/architecture.md, "A compiled core in plain C".
"""

from setuptools import Extension, setup

KERNELS = Extension(
    "mojifix._kernels",
    sources=["src/mojifix/_kernels.c"],
    # a failed build of this extension skips it instead of failing the install
    optional=True,
)

setup(ext_modules=[KERNELS])
