"""Action objects the rules hand out more than once, and copies for outside code.

Games may build their action objects once (a Sequence Cats board builds every ``play``
action when the board is made) and return the same objects from every
:meth:`~gametable.core.protocol.Game.legal_actions` call, in every game on that board.
Such a shared object is a :class:`FrozenAction`: changing it in place raises at once
instead of quietly changing what every later game offers. Code that hands actions to
code it does not control (a bot of any author) gives it :func:`copy_actions`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

import orjson

SHARED = ("This object is shared by the rules (legal_actions hands out the same action "
          "again; an outcome's score lines are the game's own); copy it before changing "
          "it: copy.deepcopy(it) (dict(it) copies only its top level).")


def _refuse_change(self: object, *args: object, **kwargs: object) -> NoReturn:
    """Every changing method of the frozen types: a shared object is not to be changed."""
    raise TypeError(SHARED)


class FrozenAction(dict[str, Any]):
    """A JSON action object (``{"type": …, …}``) that refuses to be changed in place.

    It reads and compares no differently from the ``dict`` it is (``==`` with a plain
    dict holding the same items), serialises as that dict (``json``, ``orjson``; a
    ``pickle`` loads as a frozen action again, so that a pickled state's shared actions
    stay frozen) and copies (``dict(a)``, ``copy.copy``, ``copy.deepcopy``) into a plain,
    changeable dict. Its values should themselves be immutable (strings, numbers, or a
    :class:`FrozenList`).

    Raises:
        TypeError: from every method that would change it (``a[k] = v``, ``del a[k]``,
            ``update``, ``setdefault``, ``pop``, ``popitem``, ``clear``, ``|=``).
    """

    __slots__ = ()

    _refuse = _refuse_change
    __setitem__ = _refuse
    __delitem__ = _refuse
    setdefault = _refuse
    update = _refuse
    pop = _refuse
    popitem = _refuse
    clear = _refuse
    __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> tuple[type[FrozenAction], tuple[dict[str, Any]]]:
        return (FrozenAction, (dict(self),))


class FrozenList(list[Any]):
    """A JSON array inside a :class:`FrozenAction` (a Triominos ``position``) that refuses
    to be changed in place; it reads, compares and serialises as the ``list`` it is
    (a ``pickle`` loads as a frozen list again), and copies into a plain list.

    Raises:
        TypeError: from every method that would change it.
    """

    __slots__ = ()

    _refuse = _refuse_change
    __setitem__ = _refuse
    __delitem__ = _refuse
    __iadd__ = _refuse
    __imul__ = _refuse
    append = _refuse
    extend = _refuse
    insert = _refuse
    pop = _refuse
    remove = _refuse
    clear = _refuse
    sort = _refuse
    reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return copy.deepcopy(list(self), memo)

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        return (FrozenList, (list(self),))


def frozen(action: Mapping[str, Any]) -> FrozenAction:
    """``action`` as a :class:`FrozenAction` (its items copied)."""
    return FrozenAction(action)


def freeze(value: Any) -> Any:
    """A deep copy of a JSON-like ``value`` that refuses to be changed: every object a
    :class:`FrozenAction`, every array (and tuple) a :class:`FrozenList`; strings,
    numbers, booleans and ``None`` as they are. It reads, compares and serialises as
    ``value``; :func:`gametable.core.values.json_copy` turns it back into plain, changeable
    JSON."""
    if isinstance(value, dict):
        return FrozenAction({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return FrozenList(freeze(item) for item in value)
    return value


def copy_actions(actions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Deep, plain copies of ``actions``, for code outside the rules (a bot) that may
    change what it is given without changing the game's own lists and objects.

    Returns:
        A new list of new ``dict`` objects (nested lists and objects copied too), equal
        to ``actions`` item by item.
    """
    copied: list[dict[str, Any]] = orjson.loads(orjson.dumps(list(actions)))
    return copied


class SharesFrozenActions:
    """A mixin for a state class (with ``__slots__`` and a ``copy()`` that shares what
    never changes) whose caches hold the rules' shared, frozen actions.

    ``copy.deepcopy`` is :meth:`copy` (a deep copy made those actions plain, changeable
    dicts that later turns handed out again), and a pickle leaves out the slots named in
    :attr:`caches` (set to ``None``, or to ``[]`` for those in :attr:`list_caches`),
    which the rules build again."""

    __slots__ = ()
    caches: tuple[str, ...] = ()
    list_caches: tuple[str, ...] = ()

    def copy(self) -> Any:
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self.copy()

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        slots: tuple[str, ...] = getattr(type(self), "__slots__", ())
        fields: dict[str, Any] = {name: getattr(self, name) for name in slots}
        for name in self.caches:
            fields[name] = None
        for name in self.list_caches:
            fields[name] = []
        return None, fields
