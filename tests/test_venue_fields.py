"""The venue's fields are declared once (:mod:`paper_tui.venue.fields`): every other place
that names them reads that declaration or is held to it here, so a field added, renamed or
retyped in one place and not the others fails."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from paper_tui import vocabulary
from paper_tui.citations.csl_item import SIGNALS_IN_CUSTOM
from paper_tui.cli import output
from paper_tui.exports import formats as export
from paper_tui.importers.common import make_paper
from paper_tui.index import schema, signals
from paper_tui.model import Paper
from paper_tui.query import parse as query
from paper_tui.trust import inert
from paper_tui.venue import cells as venue_cells
from paper_tui.venue import fields
from paper_tui.venue import signals as venue_signals
from paper_tui.venue.fields import NAMES, VenueSignals

FULL = VenueSignals(
    decision="oral", decision_text="Accept (Oral)", ratings=(6.0, 8.0), confidences=(4.0,),
    rating=7.0, rating_spread=1.0, confidence=4.0, area="Vision", award=True, citations=12,
    citations_date="2026-01-02", code="https://github.com/x/y", project="https://x.org",
    affiliations=(("MIT", "Google"), ("ETH",)), countries=("USA", "Switzerland"))
"""Every venue field known (none at its default)."""


def _spec(field: dataclasses.Field) -> tuple[str, str, object]:
    return field.name, str(field.type), field.default


def test_the_declaration_knows_every_field_and_a_full_example_fills_each() -> None:
    assert tuple(f.name for f in dataclasses.fields(VenueSignals)) == NAMES
    assert all(getattr(FULL, f.name) != f.default for f in fields.FIELDS)
    assert venue_signals.VenueSignals is VenueSignals
    assert VenueSignals() == venue_signals.NO_SIGNALS


def test_paper_holds_the_same_fields_in_the_same_order_types_and_defaults() -> None:
    paper = {f.name: f for f in dataclasses.fields(Paper)}
    names = list(paper)
    start = names.index(NAMES[0])
    assert tuple(names[start:start + len(NAMES)]) == NAMES  # one block, in order
    assert [_spec(paper[name]) for name in NAMES] == [_spec(f) for f in fields.FIELDS]


def test_the_importers_value_object_reaches_the_paper_whole() -> None:
    paper = make_paper(source="s", title="A title", abstract="An abstract.", signals=FULL)
    assert {name: getattr(paper, name) for name in NAMES} == fields.values(FULL)


def test_the_index_stores_every_field_and_makes_its_words_of_declared_ones() -> None:
    paper = make_paper(source="s", title="A title", abstract="An abstract.", signals=FULL)
    stored = schema.stored_fields(paper)
    assert set(NAMES) <= set(stored)
    assert Paper.from_dict(stored) == paper
    index_fields = set(schema.build_schema().names())
    words = set(signals.MADE_FROM) - set(schema.SIGNAL_NAMES)
    assert words <= index_fields
    assert set(signals.document_fields(paper)) == words | {schema.SIGNALS}
    assert set(schema.SIGNAL_NAMES) <= set(signals.MADE_FROM)
    paper_fields = {f.name for f in dataclasses.fields(Paper)}
    made_of = {name for used in signals.MADE_FROM.values() for name in used}
    assert made_of <= paper_fields
    # every venue field the index answers a word or number of is one of these
    assert made_of - {"abstract"} <= set(NAMES)
    # the query language's numbers are the signals column's
    assert set(query.NUMBER_FIELDS) <= set(schema.SIGNAL_NAMES)


def test_every_text_the_venue_gives_is_made_inert() -> None:
    dirty = VenueSignals(**{
        f.name: "x\x1b[31my" if f.type == "str" else ("x\x1b[31my",) if f.type ==
        "tuple[str, ...]" else (("x\x1b[31my",),) if f.type == "tuple[tuple[str, ...], ...]"
        else getattr(FULL, f.name) for f in fields.FIELDS})
    paper = make_paper(source="s", title="A title", abstract="An abstract.", signals=dirty)
    shown = inert.inert_paper(paper)
    for name in NAMES:
        value = getattr(shown, name)
        texts = [value] if isinstance(value, str) else [
            t for v in value for t in (v if isinstance(v, tuple) else (v,))] \
            if isinstance(value, tuple) else []
        assert all("\x1b" not in str(t) for t in texts), name
    assert shown.decision == "xy" and shown.affiliations == (("xy",),)


def test_show_json_and_the_exports_carry_every_field() -> None:
    paper = make_paper(source="s", title="A title", abstract="An abstract.", signals=FULL)
    lib = SimpleNamespace(detail=lambda _id: SimpleNamespace(as_json=dict))
    for record in (output.record(lib, paper), export.record(lib, paper)):
        assert set(NAMES) <= set(record)
    assert sorted(fields.EXPORT_ORDER) == sorted(NAMES)  # each once, in the exports' order
    assert venue_cells.COLUMNS == SIGNALS_IN_CUSTOM == fields.EXPORT_ORDER
    assert set(venue_cells.COLUMNS) <= set(export.CSV_COLUMNS)
    cells = venue_cells.cells(paper.to_dict())
    assert tuple(cells) == venue_cells.COLUMNS and all(cells.values())
    # and the CSV importer reads the cells back as they were
    assert venue_signals.from_record(cells) == FULL


def test_the_words_protocol_names_declared_fields() -> None:
    """:mod:`paper_tui.vocabulary` imports nothing of paper-tui: its protocol of what the
    venue says names a part of the declared fields."""
    protocol = {name for name in vars(vocabulary.VenueSignals) if not name.startswith("_")}
    assert protocol and protocol <= set(NAMES)
