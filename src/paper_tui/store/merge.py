"""Three-way merge of one record, and the time stamps that decide a field both sides
changed (the newer change wins)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from paper_tui.store.schema import Record, Schema, unique


def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp_time(text: str | None) -> float:
    """Seconds since the epoch for a stamp; 0 for none or one that does not parse."""
    if not text:
        return 0.0
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return 0.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def added_lines(old: str, new: str) -> str | None:
    """What ``new`` adds to ``old`` when it only adds lines at the end (a note appended to):
    the added text with the line break before it; None when ``new`` changes ``old``
    otherwise (or not at all). A first text for an empty one counts as added lines."""
    if new == old:
        return None
    if not old:
        return "\n" + new
    return new[len(old):] if new.startswith(old + "\n") else None


def add_lines(text: str, added: str) -> str:
    """``text`` with lines added at its end (``added`` as :func:`added_lines` gives it)."""
    return text + added if text else added[1:]


def _merge_items(base: tuple, ours: tuple, theirs: tuple, fold: bool) -> tuple[str, ...]:
    """Theirs, without what we removed, plus what we added (in our order)."""
    def key(item: str) -> str:
        return item.casefold() if fold else item

    base_keys = {key(x) for x in base}
    removed = base_keys - {key(x) for x in ours}
    kept = [x for x in theirs if key(x) not in removed]
    return unique(kept + [x for x in ours if key(x) not in base_keys], fold)


def merge_record(schema: Schema, base: Record | None, ours: Record | None,
                 theirs: Record | None, our_time: float,
                 appended: Mapping[str, Sequence[str]] | None = None) -> Record | None:
    """Three-way merge of one record: fields only we changed are ours, fields only they
    changed are theirs, and when both changed a field the newer change wins (the older with
    ``schema.oldest_wins``; sets and sequences merge item by item). ``appended``: text
    fields our side changed only by adding lines (field -> what each change added,
    :func:`added_lines`): they are added to theirs, so two notes appended to at once keep
    both additions."""
    if schema.implicit:
        base, ours, theirs = base or {}, ours or {}, theirs or {}
    elif ours is None:  # we deleted it (or created and deleted it)
        if base is None or theirs is None or theirs == base:
            return theirs if base is None else None
        return theirs if stamp_time(theirs.get("updated")) > our_time else None
    elif theirs is None:  # they deleted it, or we created it: never lose our work
        return ours
    base = base or {}
    their_time = stamp_time(theirs.get("updated"))
    out: Record = {}
    for field in schema.fields:
        default = field.default
        b = base.get(field.name, default)
        o = ours.get(field.name, default)
        t = theirs.get(field.name, default)
        if o in (b, t):
            value = t
        elif t == b:
            value = o
        elif appended and field.name in appended:
            value = t
            for added in appended[field.name]:
                value = add_lines(value, added)
        elif field.kind in ("set", "sequence"):
            value = _merge_items(b, o, t, field.kind == "set")
        else:
            value = t if (their_time > our_time) != schema.oldest_wins else o
        if value != default:
            out[field.name] = value
    if schema.implicit and not out:
        return None
    stamps = [s for s in (ours.get("updated"), theirs.get("updated")) if s]
    if stamps:
        out["updated"] = max(stamps, key=stamp_time)
    return out
