"""Work kept on the object it was worked out from, so that it lives exactly as long as that object.

A cache keyed weakly by an object leaks when its values refer back to the object (a road refers to its cell
graph, a solved stage to its road): the key then never dies. :func:`scratch` keeps the cache in the object's
own attributes instead; the cycle it makes is collected with the object. The cache is never pickled or copied
with the object (a copy or an unpickled object starts with an empty one), so sending a graph to another process
does not send everything worked out from it.

>>> from types import SimpleNamespace
>>> t = SimpleNamespace()
>>> scratch(t, "squares")[3] = 9
>>> scratch(t, "squares")
{3: 9}
>>> import copy, pickle
>>> scratch(copy.deepcopy(t), "squares"), scratch(pickle.loads(pickle.dumps(t)), "squares")
({}, {})
"""
from __future__ import annotations

ATTRIBUTE = "_designer_scratch"


class Scratch(dict):
    """A dict of caches that unpickles and copies as an empty one."""

    def __reduce__(self):
        return (type(self), ())

    def __copy__(self):
        return type(self)()

    def __deepcopy__(self, memo):
        return type(self)()


def scratch(obj, name: str) -> dict:
    """The cache called ``name`` kept on ``obj`` (created empty when first asked for)."""
    room = obj.__dict__.get(ATTRIBUTE)
    if room is None:
        room = obj.__dict__[ATTRIBUTE] = Scratch()
    hit = room.get(name)
    if hit is None:
        hit = room[name] = {}
    return hit
