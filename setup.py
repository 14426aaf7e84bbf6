"""The package builds as pure Python by default. With ``CANASTA_COMPILE=1`` the rules engine (``canasta/engine``
and the helpers listed in ``COMPILED``) is compiled to C extensions by mypyc, about three times faster (docs/benchmarks.md,
"The compiled engine"); it plays exactly as the pure-Python modules, which stay in the package beside it.

    CANASTA_COMPILE=1 pip install --no-build-isolation -e .    # needs mypy (the test extra) and a C compiler
    CANASTA_COMPILE=1 python setup.py build_ext --inplace      # the same, into a checkout

Everything else (the metadata, the dependencies) is in pyproject.toml.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

#: the modules mypyc compiles: the engine and the pure helpers it calls on its hot path (the variants, which
#: house rules subclass and tests patch, and everything else stay interpreted)
COMPILED = [*sorted(str(p) for p in Path("canasta/engine").glob("*.py")),
            "canasta/cards.py", "canasta/runs.py", "canasta/scoring.py", "canasta/notation.py"]

ext_modules = []
if os.environ.get("CANASTA_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3", group_name="canasta_engine")

setup(ext_modules=ext_modules)
