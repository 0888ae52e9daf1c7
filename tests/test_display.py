"""LaTeX and Markdown -> display text with emphasis spans."""

from __future__ import annotations

import pytest

from paper_tui.display import plain, render


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
