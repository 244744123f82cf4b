"""HTML written once by a template's macro with named slots, and filled with each request's values.

A list printed on every request (the rows of a table, a form's fields) costs its template a few
dozen calls per item; what is the same for every learner is written once (per process, language
or curriculum revision) with a slot where each of the learner's values goes, then each request
joins the pieces with its values, escaped as the template would have escaped them.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass

from markupsafe import Markup

# PostgreSQL text cannot hold a NUL character: no value printed in a page has one.
SLOT = re.compile("\x00(\\w+)\x00")
AT_SLOTS = re.compile("(\x00\\w+\x00)")

# HTML split at its slots: the text between them and the slots themselves. Unlike a Slotted, it
# can be filled in steps: what a page's learner needs first, the page's own CSRF field and address
# as the template prints it.
Pieces = tuple[str, ...]


def split_at_slots(html: str) -> Pieces:
    return tuple(AT_SLOTS.split(str(html)))


def filled(pieces: Pieces, values: Mapping[str, str]) -> str:
    """The HTML with the values given (escaped already) in their slots; the other slots stay."""
    return "".join([values.get(piece, piece) for piece in pieces])


def slot(name: str) -> str:
    """What to give a macro where the value called name goes."""
    return f"\x00{name}\x00"


def positional(html: str, *names: str) -> str:
    """The HTML as a plain format string, a positional field for each of its slots in the order
    of names, for values escaped already: Markup's own format would escape them again, slowly,
    and str.format fills positions twice as fast as names (the group board fills fifty entries)."""
    text = str.replace(html, "{", "{{").replace("}", "}}")
    for position, name in enumerate(names):
        text = text.replace(slot(name), f"{{{position}}}")
    if "\x00" in text:
        raise ValueError(f"{text!r} has a slot that is not among {names}")
    return text


@dataclass(frozen=True, slots=True)
class Slotted:
    """HTML cut at its slots: the text before the first slot, then (slot's name, text after it)."""

    head: str
    rest: tuple[tuple[str, str], ...]

    @classmethod
    def cut(cls, html: str) -> "Slotted":
        pieces = SLOT.split(str(html))
        return cls(pieces[0], tuple(zip(pieces[1::2], pieces[2::2], strict=True)))

    def filled(self, values: Mapping[str, str]) -> str:
        """The HTML with each slot's value, which must be escaped HTML already."""
        parts = [self.head]
        for name, text in self.rest:
            parts.append(values[name])  # joined, not added: Markup + str would escape the text
            parts.append(text)
        return "".join(parts)

    def markup(self, values: Mapping[str, str]) -> Markup:
        return Markup(self.filled(values))
