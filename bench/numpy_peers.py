"""NumPy peers of the stridekit benchmarks, measured in the same bench/run.

measure(key) returns the median seconds per call of the NumPy operation that
the benchmark labelled "peer=<key>" is compared with.
"""
import statistics
import timeit

import numpy as np


def _median_seconds(fn, quick):
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    runs = timer.repeat(repeat=3 if quick else 5, number=number)
    return statistics.median(runs) / number


def _unravel(rank):
    shape = (7,) * rank
    return lambda: np.unravel_index(12345 % 7**rank, shape)


PEERS = {
    "broadcast2": lambda: np.broadcast_shapes((8, 1, 6, 1), (7, 1, 5)),
    "broadcast4": lambda: np.broadcast_shapes((8, 1, 6, 1), (7, 1, 5),
                                              (1, 1, 1, 5), (6, 1)),
    "unravel_index_rank2": _unravel(2),
    "unravel_index_rank4": _unravel(4),
    "unravel_index_rank8": _unravel(8),
}


def measure(key, quick=False):
    return _median_seconds(PEERS[key], quick)
