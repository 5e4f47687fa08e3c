"""Racing calls: the tests of several servers let threads go at once, as two servers would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def at_once(count: int, call: Callable[[int], T]) -> list[T]:
    """``call(0)`` ... ``call(count - 1)``, each on its own thread, all let go at once."""
    start = threading.Barrier(count)
    results: list[T] = []
    lock = threading.Lock()

    def run(index: int) -> None:
        start.wait()
        result = call(index)
        with lock:
            results.append(result)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == count
    return results
