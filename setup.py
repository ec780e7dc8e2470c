"""Build of mojifix's optional compiled kernels (everything else is declared in pyproject.toml).

``mojifix._kernels`` is a C extension marked optional: when no C compiler is found or the compile fails,
the build goes on without it and the package runs its pure-Python reference (``mojifix._native``; ``mojifix
--version`` says which is active). See docs/architecture.md, "A compiled core in plain C".
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNELS = Extension(
    "mojifix._kernels",
    sources=["src/mojifix/_kernels.c"],
    # a failed build of this extension skips it instead of failing the install
    optional=True,
)
#: the detector's scoring kernel (mojifix/detect/scoring.py is its reference), optional in the same way
DETECT_SCORING = Extension(
    "mojifix.detect._scoring",
    sources=["src/mojifix/detect/_scoring.c"],
    optional=True,
)
#: the JSON-lines writer of ``mojifix warc`` (reference: json.dumps in integrations/warc.py), optional too
WARC_JSONL = Extension(
    "mojifix.integrations._jsonl",
    sources=["src/mojifix/integrations/_jsonl.c"],
    optional=True,
)

#: Flags for GCC and Clang: no fused multiply-add contraction, so the repair scores computed in C are the
#: same doubles as the Python reference's (which rounds after every operation); and libm for log10.
UNIX_COMPILE_ARGS = ["-ffp-contract=off"]
UNIX_LIBRARIES = ["m"]


class BuildKernels(build_ext):
    """build_ext that adds the Unix compilers' flags (MSVC does not contract unless asked to)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for extension in self.extensions:
                extension.extra_compile_args = [*extension.extra_compile_args, *UNIX_COMPILE_ARGS]
                extension.libraries = [*extension.libraries, *UNIX_LIBRARIES]
        super().build_extensions()


setup(ext_modules=[KERNELS, DETECT_SCORING, WARC_JSONL], cmdclass={"build_ext": BuildKernels})
