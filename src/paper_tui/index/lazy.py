"""A cached attribute that is safe across threads on Python 3.11."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, overload

_Owner = TypeVar("_Owner")
_Value = TypeVar("_Value")


class cached(Generic[_Owner, _Value]):
    """``functools.cached_property`` without Python 3.11's lock.

    On 3.11 that lock is one per property for *all* instances, so the annotation writer
    thread computing one cached value while the UI thread waits, under our own lock, for
    another deadlocks (3.12 dropped the lock for this reason). Here the value may be
    computed twice in a race; every computation below is pure, so either result is right.
    """

    def __init__(self, func: Callable[[_Owner], _Value]) -> None:
        self.func = func
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> Self: ...
    @overload
    def __get__(self, obj: _Owner, objtype: type | None = None) -> _Value: ...

    def __get__(self, obj: _Owner | None, objtype: type | None = None) -> Self | _Value:
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


class _Numpy:
    """numpy, imported on first use: its import costs ~0.1 s, and a process that only lists
    papers (the app's first screen, the empty query) never needs it. Python's module lock
    makes a first use from two threads at once safe; each attribute is kept after its first
    lookup, so later uses cost what a module attribute does."""

    def __getattr__(self, name: str) -> Any:
        import numpy

        value = getattr(numpy, name)
        setattr(self, name, value)
        return value


if TYPE_CHECKING:  # the proxy hands out numpy's own attributes: type them as numpy's
    import numpy as np
else:
    np = _Numpy()
