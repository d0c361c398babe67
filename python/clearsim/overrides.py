"""Overrides of model-file values: Python values written as the YAML text the reader checks."""

import math
import numbers

import numpy as np

from . import _core


def to_yaml(value):
    """The YAML text of a Python value: numbers exactly (shortest repr), bools, strings as they
    are (so '[0, 0, -9.81]' is a list), lists/tuples/arrays as [a, b], dicts as {k: v}."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        return repr(x) if math.isfinite(x) else str(x)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {to_yaml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(to_yaml(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as a model-file value")


def normalize(overrides):
    """A list of _core.Override from a dict {path: value}, pairs (path, value) or strings
    "PATH=VALUE" (as on the command line)."""
    if overrides is None:
        return []
    if isinstance(overrides, dict):
        items = overrides.items()
    else:
        items = []
        for o in overrides:
            if isinstance(o, str):
                path, sep, value = o.partition("=")
                if not sep:
                    raise ValueError(f"expected PATH=VALUE, found {o!r}")
                items.append((path, value))
            else:
                path, value = o
                items.append((path, value))
    return [_core.Override(str(path), to_yaml(value)) for path, value in items]
