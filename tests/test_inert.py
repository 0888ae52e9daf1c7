"""Text from data made inert: escape sequences and control characters never reach a
terminal (``paper_tui.trust.inert``)."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from paper_tui.trust.inert import (
    escape_in_strings,
    inert_line,
    inert_line_offsets,
    inert_text,
    is_inert,
    needs_escape,
)

ESC = "\x1b"
UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What no inert text holds (tabs and newlines aside)."""

# Pieces hostile text is made of: whole sequences, their parts and the characters around.
PIECES = [ESC, "\x07", "\x9c", "\x9b", "\x9d", "\x90", "\x7f", "\r", "\n", "\t", "\x85",
          "\u2028", "\u202e", "\u2066", "\u200f", "[", "]", "\\", "0;", "52;c;", "31m", "k",
          "P", "^", "_", "X", "(", "B", "c", "title", "é", " ", "\x00", "\x0b"]
hostile = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)
any_text = st.text() | hostile


@given(any_text)
def test_inert_text_holds_no_control_character_but_tab_and_newline(text: str) -> None:
    out = inert_text(text)
    assert UNSAFE.search(out) is None
    assert is_inert(out)


@given(any_text)
def test_inert_line_holds_no_control_character_at_all(text: str) -> None:
    out = inert_line(text)
    assert UNSAFE.search(out) is None and "\n" not in out and "\t" not in out
    assert is_inert(out, one_line=True)


@given(any_text)
def test_both_are_idempotent(text: str) -> None:
    assert inert_text(inert_text(text)) == inert_text(text)
    assert inert_line(inert_line(text)) == inert_line(text)


@given(st.text().filter(lambda t: UNSAFE.search(t) is None))
def test_plain_text_is_unchanged(text: str) -> None:
    assert inert_text(text) is text
    if "\n" not in text and "\t" not in text:
        assert inert_line(text) is text


@given(any_text)
def test_nothing_is_added(text: str) -> None:
    assert len(inert_text(text)) <= len(text)
    assert len(inert_line(text)) <= len(text)


@given(st.recursive(st.none() | st.booleans() | st.integers() | any_text,
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(any_text, inner, max_size=4), max_leaves=12))
def test_escaped_json_is_the_same_data_with_nothing_raw(data: object) -> None:
    serialized = escape_in_strings(json.dumps(data, ensure_ascii=False, indent=2))
    assert json.loads(serialized) == data
    assert is_inert(serialized)


def test_sequences_are_removed_whole() -> None:
    cases = {
        f"a{ESC}]0;pane title\x07b": "ab",  # OSC with BEL
        f"a{ESC}]52;c;aGk=\x07b": "ab",  # OSC 52: the clipboard
        f"a{ESC}]2;title{ESC}\\b": "ab",  # OSC with ST
        "a\x9d0;title\x9cb": "ab",  # 8-bit OSC and ST
        f"a{ESC}[31;1mred{ESC}[0mb": "aredb",  # CSI SGR
        f"a{ESC}[2Jb": "ab",  # CSI: clear the screen
        f"a{ESC}[?1049hb": "ab",  # CSI with a private parameter
        "a\x9b31mb": "ab",  # 8-bit CSI
        f"a{ESC}Pq#0;2;0;0;0#1~{ESC}\\b": "ab",  # DCS (sixel)
        f"a{ESC}_payload{ESC}\\b": "ab",  # APC
        f"a{ESC}^privacy{ESC}\\b": "ab",  # PM
        f"a{ESC}Xsos{ESC}\\b": "ab",  # SOS
        f"a{ESC}ktmux window{ESC}\\b": "ab",  # tmux/screen title
        f"a{ESC}(Bb": "ab",  # designate a character set
        f"a{ESC}cb": "ab",  # reset the terminal
        f"a{ESC}7b{ESC}8": "ab",  # save / restore the cursor
    }
    for raw, shown in cases.items():
        assert inert_text(raw) == shown, repr(raw)
        assert inert_line(raw) == shown, repr(raw)


def test_a_string_ends_where_a_terminal_would_end_it() -> None:
    # at the end of the text, at the next sequence, at a line break: no payload is shown
    assert inert_text(f"a{ESC}]0;no end") == "a"
    assert inert_text("a\x9d0;no end") == "a"
    assert inert_text(f"a{ESC}]2;window{ESC}ktmux{ESC}[2Jb") == "ab"
    assert inert_text(f"a{ESC}]0;title\nnext line") == "a\nnext line"
    # tmux's passthrough: a DCS holding an OSC 52, each taken apart, nothing left
    assert inert_text(f"{ESC}Ptmux;{ESC}{ESC}]52;c;aGk=\x07{ESC}\\") == ""


def test_removing_a_sequence_never_makes_a_new_one() -> None:
    assert inert_text(f"{ESC}{ESC}[31m[31mx") == "[31mx"
    assert inert_text(f"{ESC}[{ESC}[31m31mx") == "31mx"


def test_lone_controls_go_and_line_breaks_are_newlines_in_text() -> None:
    assert inert_text("a\x00b\x07c\x08d\x7fe\x0bf\x0cg") == "abcdefg"
    assert inert_text("one\r\ntwo\rthree\x85four\u2028five\u2029six") == \
        "one\ntwo\nthree\nfour\nfive\nsix"
    assert inert_text("keeps\ttabs\nand newlines") == "keeps\ttabs\nand newlines"


def test_a_line_is_one_line() -> None:
    assert inert_line("title\nsecond line") == "title second line"
    assert inert_line("a\r\n\tb\u2028c") == "a b c"
    assert inert_line("file\x1b]0;x\x07name\n.json") == "filename .json"


def test_bidi_controls_go_but_marks_stay() -> None:
    assert inert_line("evil\u202etxt.exe") == "eviltxt.exe"
    assert inert_line("\u2066isolated\u2069") == "isolated"
    hebrew = "\u05e9\u05dc\u05d5\u05dd\u200f (2024)"  # an RLM keeps the year where it is
    assert inert_line(hebrew) == hebrew


def test_text_without_control_characters_is_returned_as_it_is() -> None:
    title = "L²EAP: naïve Bayes — «quoted» 日本語 \u00a0 emoji 🙂"
    assert inert_line(title) is title
    assert inert_text("a\nb\tc") == "a\nb\tc"


WHOLE = [f"{ESC}]0;title\x07", f"{ESC}]52;c;aGk={ESC}\\", f"{ESC}[1;31m", "\x9b2J",
         f"{ESC}ktmux{ESC}\\", f"{ESC}c", "\x07", "\u202e"]
plain_text = st.text().filter(lambda t: UNSAFE.search(t) is None and "\n" not in t
                              and "\t" not in t)


@given(plain_text, st.sampled_from(WHOLE), plain_text)
def test_offsets_follow_the_text_past_what_is_removed(before: str, removed: str,
                                                        after: str) -> None:
    text = before + removed + after
    shown, at = inert_line_offsets(text)
    assert shown == inert_line(text) == before + after
    assert [at(i) for i in range(len(before) + 1)] == list(range(len(before) + 1))
    tail = len(before) + len(removed)
    assert [at(tail + i) for i in range(len(after) + 1)] == \
        [len(before) + i for i in range(len(after) + 1)]


@given(any_text)
def test_offsets_never_go_back(text: str) -> None:
    shown, at = inert_line_offsets(text)
    assert shown == inert_line(text)
    positions = [at(i) for i in range(len(text) + 1)]
    assert positions == sorted(positions) and positions[-1] == len(shown)


def test_a_span_keeps_its_words_when_a_sequence_before_them_goes() -> None:
    text = f"Title{ESC}]0;x\x07 with words"
    shown, at = inert_line_offsets(text)
    start = text.index("words")
    assert shown[at(start):at(start + 5)] == "words"
    assert inert_line_offsets("plain")[1](3) == 3


def test_del_in_ascii_json_is_escaped() -> None:
    # ASCII text skipped the escape: DEL is ASCII (found by the property test above).
    assert escape_in_strings(json.dumps("a\x7fb")) == '"a\\u007fb"'
    assert needs_escape("a\x7fb") and not needs_escape("ab")
