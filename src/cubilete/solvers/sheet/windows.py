"""Numbers per state class, each class's in a window of its own width, filled on demand.

A class's window holds the entries low, low + 1, ..., low + width - 1 of some function of
the remaining score (its probabilities, or the chances to reach each score). The windows
of one layer of classes (by number of filled boxes) share one array: a turn fills one box,
so a kernel filling a layer reads only the next layer's array. Classes are added to a
layer when a request first needs them, which grows that layer's array and no other.
"""

from __future__ import annotations

import threading

import numpy as np

from ...engine.sheet_scoring import Sheet
from .advice import position
from .classes import StateClasses, state_classes
from .solver import SheetSolution

MISSING = -1  # the width of a class not computed yet


class LayeredWindows:
    """The windows of every class: float64 entries as computed (`scale` 1), or entries read from a
    saved table in another type, each standing for `scale` times its stored value."""

    def __init__(self, classes: StateClasses) -> None:
        self.low = np.zeros(classes.count, dtype=np.int64)
        self.width = np.full(classes.count, MISSING, dtype=np.int64)
        self.offset = np.zeros(classes.count, dtype=np.int64)
        self.layers = [np.zeros(0) for _ in range(int(classes.filled.max()) + 1)]
        self.scale = 1.0

    def extend(self, layer: int, which: np.ndarray, low: np.ndarray, width: np.ndarray) -> np.ndarray:
        """Give these classes of the layer new windows, zeroed, at the end of its array;
        return the layer's grown array (a class's entries start at its offset)."""
        old = self.layers[layer]
        self.low[which], self.width[which] = low, width
        self.offset[which] = old.size + np.cumsum(width) - width
        self.layers[layer] = np.concatenate((old, np.zeros(int(width.sum()))))
        return self.layers[layer]

    def window(self, c: int, layer: int) -> np.ndarray:
        """The values of class c (in `layer`), float64: a view when computed here, else a copy."""
        entries = self.layers[layer][self.offset[c] : self.offset[c] + self.width[c]]
        return entries if self.scale == 1.0 else entries * self.scale

    def nbytes(self) -> int:
        return sum(layer.nbytes for layer in self.layers) + 3 * self.low.nbytes

    def arrays(self) -> dict[str, np.ndarray]:
        """What a saved table holds of these windows (`restore` reads it back)."""
        return {
            "low": self.low, "width": self.width, "offset": self.offset, "scale": np.array(self.scale),
            **{f"layer{i}": layer for i, layer in enumerate(self.layers)},
        }

    def restore(self, arrays: dict[str, np.ndarray]) -> bool:
        """Take the windows of a saved table (`arrays`), if it fits these classes: whether it did."""
        layers = [arrays.get(f"layer{i}") for i in range(len(self.layers))]
        shapes = [arrays.get(name, np.zeros(0)).shape for name in ("low", "width", "offset")]
        if any(layer is None for layer in layers) or shapes != [self.low.shape] * 3 or "scale" not in arrays:
            return False
        self.low, self.width, self.offset = arrays["low"], arrays["width"], arrays["offset"]
        self.layers, self.scale = [layer for layer in layers if layer is not None], float(arrays["scale"])
        return True


class ClassTable:
    """What a table of windows over one solution's state classes starts from: the classes,
    empty windows, a lock for the requests of several threads, and the class of a sheet."""

    def __init__(self, solved: SheetSolution) -> None:
        self.solved = solved
        self.classes: StateClasses = state_classes(solved)
        self.windows = LayeredWindows(self.classes)
        self._lock = threading.Lock()

    @property
    def last_layer(self) -> int:
        """The layer of the full sheet."""
        return self.solved.tables.shape.box_count

    def class_of(self, sheet: Sheet) -> int:
        (mask, joker, upper), _ = position(self.solved, sheet)
        return self.classes.of(self.solved.tables, mask, joker, upper)
