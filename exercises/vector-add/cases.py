"""Cases of vector-add: two float32 vectors of `size` elements; the answer is their sum."""

import numpy as np


def make_case(size, rng):
    return {
        "a": rng.standard_normal(size).astype(np.float32),
        "b": rng.standard_normal(size).astype(np.float32),
    }


def expected(inputs):
    return inputs["a"] + inputs["b"]
