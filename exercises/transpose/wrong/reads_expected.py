"""Wrong: computes nothing, looks for the answer instead.

It takes the expected output from the checker's memory, or runs the exercise's reference.py or
cases.py if it can find them (beside the exercise named on the command line, or above this
file). On the learner's machine it can (the local check is advice); in the server's sandbox none
of them is there, so it must fail. The same file serves every exercise.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np


def _from_the_checkers_memory():
    frame = sys._getframe(2)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if getattr(value, "expected", None) is not None:
                return value.expected
        frame = frame.f_back
    return None


def _places():
    places = [Path.cwd(), *Path(__file__).resolve().parents]
    argv = sys.argv
    if "--exercise" in argv:
        places.insert(0, Path(argv[argv.index("--exercise") + 1]).resolve())
    return places


def _load(path):
    spec = importlib.util.spec_from_file_location(f"found_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solve(**inputs):
    found = _from_the_checkers_memory()
    if found is not None:
        return found
    for place in _places():
        try:
            if (place / "reference.py").exists():
                return _load(place / "reference.py").solve(**inputs)
            if (place / "cases.py").exists():
                return _load(place / "cases.py").expected(inputs)
        except OSError:
            continue
    first = next(value for value in inputs.values() if isinstance(value, np.ndarray))
    return np.zeros_like(first)
