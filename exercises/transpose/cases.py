"""Cases of transpose: a float32 matrix of `size` rows and 1 to 39 columns; the answer is a.T."""

import numpy as np


def make_case(size, rng):
    columns = int(rng.integers(1, 40))
    return {"a": rng.standard_normal((size, columns)).astype(np.float32)}


def expected(inputs):
    return np.ascontiguousarray(inputs["a"].T)
