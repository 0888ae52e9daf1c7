"""LaTeX and Markdown -> display text with emphasis spans."""

from __future__ import annotations

import random
import re

import pytest

from paper_tui.display import plain, render, token_search


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("L$^2$EAP", "L²EAP"),
        ("MemR$^3$", "MemR³"),
        ("$O(L^2)$", "O(L²)"),
        ("*5,000*$\\times$", "5,000×"),
        ("$200{,}000$", "200,000"),
        ("from below 10\\% to 70\\%", "from below 10% to 70%"),
        ("$\\ell_1$-regression", "ℓ₁-regression"),
        ("Rodol\\`a", "Rodolà"),
        ("Jo{\\~a}o and Fig.~3", "João and Fig.\u00a03"),
        ("$\\alpha$-divergence", "α-divergence"),
        ("a ``quoted'' word", "a “quoted” word"),
        ("plain text stays plain", "plain text stays plain"),
        ("a * b and c * d", "a * b and c * d"),
        ("unbalanced {brace", "unbalanced brace"),
        ("", ""),
    ],
)
def test_render_text(raw: str, text: str) -> None:
    assert plain(raw) == text


def test_emphasis_spans() -> None:
    text, spans = render("we propose **SMITH** and \\emph{KnowEvo}; PRMs are *text-based*.")
    assert text == "we propose SMITH and KnowEvo; PRMs are text-based."
    styled = {text[s:e]: style for s, e, style in spans}
    assert styled == {"SMITH": "bold", "KnowEvo": "italic", "text-based": "italic"}


def test_bold_inside_math() -> None:
    text, spans = render("$\\textbf{J}$oint $\\textbf{S}$parse")
    assert text == "Joint Sparse"
    assert [text[s:e] for s, e, _ in spans] == ["J", "S"]


def test_bundled_abstracts_render_without_latex_left(library) -> None:
    for paper in library.papers():
        assert "$" not in paper.display_abstract or "\\$" in paper.abstract, paper.id
        assert "\\emph" not in paper.display_abstract
        assert "**" not in paper.display_abstract


# Real abstracts from the corpus (id first), cut to the sentence that matters.
UNDERSCORE_EMPHASIS = [
    ("colm2025-MsgdEkcLRz", "To address this gap, we introduce _LawFlow_, a dataset of "
     "complete end-to-end legal workflows", ["LawFlow"]),
    ("colm2025-dujG4nGClA", "benchmarking against a non-private method inspired by _Clio_  "
     "(Tamkin et al. 2024).", ["Clio"]),
    ("aistats2025-N6U1Ue7YgT", "we extend the _batch-and-match_ (BaM) framework for "
     "score-based BBVI to\nproblems where it is p", ["batch-and-match"]),
    ("aistats2025-N6U1Ue7YgT", "we add an extra step to\neach iteration of BaM---a "
     "_patch_---that projects each newly updated covariance matrix", ["patch"]),
    ("acl2021-2021.acl-long.89", "whether a neural retrieval model can be _universal_ and "
     "perform robustly", ["universal"]),
]


@pytest.mark.parametrize(("paper_id", "raw", "italic"), UNDERSCORE_EMPHASIS,
                         ids=[case[0] for case in UNDERSCORE_EMPHASIS])
def test_markdown_underscores_are_italic(paper_id: str, raw: str, italic: list[str]) -> None:
    text, spans = render(raw)
    assert "_" not in text
    assert [(text[s:e], style) for s, e, style in spans] == [(w, "italic") for w in italic]


def test_several_words_in_underscores_and_double_underscores() -> None:
    text, spans = render("from the _Global North_ than the _Global South_, and __all__ of it")
    assert text == "from the Global North than the Global South, and all of it"
    assert [(text[s:e], style) for s, e, style in spans] == [
        ("Global North", "italic"), ("Global South", "italic"), ("all", "bold")]


@pytest.mark.parametrize("raw", [
    # aaai2022-04057, aaai2022-11192, aaai2022-05008: identifiers, a URL, math without $
    "a  set of named attributes (e.g.: number_of_atoms, stock_price, etc). These",
    "Our code for post-OCR correction is shared at https://github.com/jarobyte91/"
    "post_ocr_correction.",
    "as the sum of differences p_high_j-p_low_j over all items (normalized by social welfare).",
    "file_name_v2, a_b, x_1 and snake_case_ stay",
    "a link to https://example.org/_private_/page and a _ lone _ underscore",
])
def test_underscores_inside_words_and_links_stay(raw: str) -> None:
    text, spans = render(raw)
    assert text == raw and spans == ()


def test_underscores_in_math_are_subscripts_not_emphasis() -> None:
    text, spans = render("$x_i + y_j$ and _both_ of them, \\_escaped\\_ too")
    assert text == "xᵢ + yⱼ and both of them, _escaped_ too"
    assert [(text[s:e], style) for s, e, style in spans] == [("both", "italic")]


@pytest.mark.parametrize("underscores", [False, True])
def test_the_token_search_finds_what_a_plain_search_finds(underscores: bool) -> None:
    """Trying only where a token can begin finds the match ``search`` finds, from any
    cursor, a look-behind seeing the text before it (random texts of the characters that
    matter)."""
    from paper_tui import display

    token, starts = (display._TOKEN, display._STARTS) if underscores else \
        (display._COMMON_TOKEN, display._COMMON_STARTS)
    rng = random.Random(39)
    alphabet = "ab _*$\\{}~`'^1 \n(["
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        cursor = rng.randint(0, len(text))
        found, expected = token_search(token, starts, text, cursor), token.search(text, cursor)
        assert (found and found.span(), found and found.group(0)) == \
            (expected and expected.span(), expected and expected.group(0)), (text, cursor)
    assert isinstance(token, re.Pattern)
