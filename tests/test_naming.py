"""Names and titles: every bundled abstract, read through the real importer."""

from __future__ import annotations

import pytest

from paper_tui import display, paths
from paper_tui.importers import import_file
from paper_tui.model import Paper
from paper_tui.naming import NAMED_CHARS, first_sentence, name_and_title, shorten

# The name each bundled abstract introduces, in file order; "" where it names nothing.
# A tuple lists every name a reader could fairly use when an abstract introduces two.
EXPECTED: dict[str, list[str | tuple[str, ...]]] = {
    "000": [
        "L²EAP",  # also introduces Lean-IMO-Bench, as its evaluation
        "KGO",
        "",  # "our knowledge localization framework": unnamed
        "",  # terms a phenomenon (*late-layer reversal*, *Dual-Track*), names no contribution
        "SubDx",
        "MemR³",
        "KnowEvo",
        "KYT",
        ("MSBench", "MSR"),  # a benchmark and a method, both introduced
        "KiteNorm",
        "GibbsTTS",  # "We validate the resulting method, GibbsTTS, …"
        "",  # "a kernel-based framework": unnamed
        "kernel-gradient drifting",  # a lowercase name: deliberately not extracted (see below)
        "KVR",
        "CP-MMD",
        "KerONet",  # "The resulting architecture, KerONet, …"
        "CALM",
        "KaliBench",
        "Kairos",
    ],
    "003": [
        "KV-PRM",
        "KV Packet",
        "RustKNN",
        "vOPD",
        "KINDER",
        "KG-Guard",  # opens the sentence after "propose a lightweight … framework"
        "KDASO",
        "K12-KGraph",  # with K12-Bench and K12-Train derived from it
        "K-PWM",
        "Justitia",
        "",  # "our proposed approach": unnamed
        "JumpStart",
        "JudgmentBench",
        "JuICE",
        "JRF",
        "DARLING",
        "CausalFlow-T",
        "JSVD",
        "SMITH",
    ],
}
# Lowercase phrases are names too rarely to risk ("we propose contrastive learning, a …"):
# a known, accepted miss.
KNOWN_MISSES = {"kernel-gradient drifting"}


def bundled_papers() -> dict[str, list[Paper]]:
    out: dict[str, list[Paper]] = {}
    for path in sorted(paths.bundled_data_dir().glob("*.txt")):
        _, _, records = import_file(path)
        out[path.name[:3]] = [r for r in records if isinstance(r, Paper)]
    return out


PAPERS = bundled_papers()
CASES = [(f"{chunk}#{i}", paper, expected)
         for chunk, papers in PAPERS.items()
         for i, (paper, expected) in enumerate(zip(papers, EXPECTED[chunk], strict=True))]


def test_every_bundled_abstract_is_in_the_table() -> None:
    assert sum(len(p) for p in PAPERS.values()) == 38
    assert len(CASES) == 38


@pytest.mark.parametrize(("case", "paper", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bundled_name_is_right_or_empty(case: str, paper: Paper, expected: str | tuple) -> None:
    """Never a wrong name: the expected one, or (for a known miss) none at all."""
    allowed = set(expected) if isinstance(expected, tuple) else {expected}
    if allowed & KNOWN_MISSES:
        allowed.add("")
    assert paper.name in allowed, f"{case}: {paper.name!r} not in {allowed}"


def test_bundled_recall_and_no_false_names() -> None:
    named = [(p, e) for _, p, e in CASES if e]
    hits = sum(p.name in (e if isinstance(e, tuple) else (e,)) for p, e in named)
    false_names = [p.name for _, p, e in CASES if not e and p.name]
    assert len(named) == 34
    assert hits >= 33  # all but the lowercase one; the issue asks for at least 31
    assert false_names == []


@pytest.mark.parametrize(
    ("index", "title"),
    [
        (("000", 0), "L²EAP: LLM-in-Lean Environment Agentic Prover"),
        (("000", 1), "KGO: Koopman Generative Operator"),
        (("000", 7), "KYT: Know Your Task, Learn It Right"),
        (("003", 6), "KDASO: Knowledge-Data Dual-Driven Automated Skill Optimization"),
        (("003", 17), "JSVD: Joint Sequence–Vocabulary Distillation"),
        (("003", 18), "SMITH: Schema-grounded Multi-task Iterative Tool Honing"),
        (("003", 3), "vOPD: On-Policy Distillation with a control variate baseline"),
        (("000", 9), "KiteNorm: A novel normalisation method designed to break this trend"),
        (("003", 5), "KG-Guard: A lightweight graph-based framework that treats the answering "
                     "LLM as a black box"),
    ],
)
def test_generated_titles(index: tuple[str, int], title: str) -> None:
    paper = PAPERS[index[0]][index[1]]
    assert paper.display_title == title
    assert paper.title_generated


def test_gist_titles_are_short_but_say_something() -> None:
    for _, paper, _ in CASES:
        assert len(paper.display_title) <= 91, paper.display_title
        if paper.name:
            # "GibbsTTS: Method" (from "the resulting method, GibbsTTS") says nothing.
            assert len(paper.display_title.partition(": ")[2].split()) >= 2, paper.display_title


@pytest.mark.parametrize(("abstract", "title"), [
    ("We propose Harmonic Networks or H-Nets, a CNN that is equivariant to patch-wise "
     "translation and 360-rotation.", "H-Nets: Harmonic Networks"),
    ("We present Sun Off Lights On (SOLO), a benchmark.", "SOLO: Sun Off Lights On"),
])
def test_titles_do_not_end_on_a_dangling_word(abstract: str, title: str) -> None:
    assert name_and_title(abstract)[1] == title


def test_names_come_from_the_first_characters_of_a_long_abstract() -> None:
    filler = "We present a unit for an ankle, or Jammkle, as " * 2000  # 94,000 characters
    assert name_and_title(filler) == name_and_title(filler[:NAMED_CHARS])
    late = "Robots walk on rough ground. " * 300 + "We propose WalkNet, a controller."
    assert len(late) > NAMED_CHARS
    assert name_and_title(late)[0] == ""  # introduced past the limit
    assert name_and_title(late[-200:])[0] == "WalkNet"


def test_nameless_abstract_keeps_the_shortened_first_sentence() -> None:
    paper = PAPERS["000"][2]
    assert paper.name == ""
    assert paper.title == shorten(first_sentence(paper.abstract))
    assert paper.title.startswith("Modern LLMs continue to exhibit")
    assert paper.title.endswith("…")


def test_raw_name_keeps_latex_for_display() -> None:
    name, title = name_and_title(PAPERS["000"][5].abstract)
    assert name == "MemR$^3$"
    assert display.plain(name) == "MemR³"
    assert title.startswith("MemR$^3$: A backend-agnostic closed-loop controller")


@pytest.mark.parametrize(
    ("title", "abstract", "name"),
    [
        ("BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
         "We introduce a new language representation model called BERT, which stands for "
         "Bidirectional Encoder Representations from Transformers.", "BERT"),
        ("Position: Benchmarks Should Report Variance",
         "We argue that benchmarks should report variance across seeds.", ""),
        ("Going Deeper with Convolutions",
         "We propose a deep convolutional neural network architecture codenamed Inception, "
         "which achieves the new state of the art.", "Inception"),
        ("A Study of Something",
         "Large language models (LLMs) are widely used. We study how LLMs forget.", ""),
    ],
)
def test_source_titles_are_kept(title: str, abstract: str, name: str) -> None:
    got_name, got_title = name_and_title(abstract, title)
    assert got_title == title
    assert got_name == name


@pytest.mark.parametrize(
    "abstract",
    [
        # Background acronyms defined or used, never introduced.
        "Large language models (LLMs) are increasingly deployed. Mixture-of-experts (MoE) "
        "models route tokens to experts. We study the routing of MoE LLMs in depth.",
        # A prior method compared against.
        "We propose a simple regulariser for image classifiers. It outperforms Mixup, a "
        "popular augmentation, on CIFAR-10 and ImageNet.",
        # A modifier, not a name.
        "We propose LLM-based agents that plan with a learned world model.",
        # A plural acronym introduced as background.
        "In this paper, we introduce graph neural networks (GNNs) to the analysis of "
        "molecular data and study their expressiveness.",
        # A term for a phenomenon.
        "We find that models suppress the answer late. We term this late-layer reversal.",
        # A mass noun takes no article either.
        "To this end, we propose regularization, a simple fix for overfitting in small data.",
    ],
)
def test_no_false_names(abstract: str) -> None:
    assert name_and_title(abstract)[0] == ""


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        ("To address this, we propose a novel framework named Automated Graph Contrastive "
         "Learning (AutoGCL) in this paper.", "AutoGCL"),
        ("We present a new human-human dialogue dataset - PhotoChat, the first dataset that "
         "casts light on photo sharing.", "PhotoChat"),
        ("We refer to the proposed descriptor as GeoDesc, and demonstrate its performance.",
         "GeoDesc"),
        ("This study introduces the MPPO algorithm, which leverages the average likelihood.",
         "MPPO"),
        ("We build light-weight CNNs known as ChannelNets. ChannelNets use three instances.",
         "ChannelNets"),
        ("We address this challenge with Diversity-Aware Reinforcement Learning (DARLING), a "
         "framework that optimizes quality and diversity.", "DARLING"),
        # A lowercase name right after the verb, with an apposition.
        ("Here we introduce textless-lib, a PyTorch-based library for spoken language.",
         "textless-lib"),
    ],
)
def test_introduction_patterns(abstract: str, name: str) -> None:
    assert name_and_title(abstract)[0] == name


def test_empty_abstract() -> None:
    assert name_and_title("") == ("", "")



@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        # Never introduced by a cue, but owned and the subject of the results.
        ("Portrait matting is costly on phones. Our SDNet contains only 2M parameters. "
         "Experiments show that SDNet outperforms larger matting models.", "SDNet"),
        ("Template matching is classic. Experiments demonstrate the effectiveness of QATM: "
         "QATM outperforms prior template matching methods.", "QATM"),
        # A repository's own name in the code link.
        ("Agents explore open worlds slowly. We demonstrate faster exploration in Minecraft. "
         "Code: https://github.com/PKU-RL/LLaMA-Rider. LLaMA-Rider also learns tools.",
         "LLaMA-Rider"),
    ],
)
def test_names_owned_without_an_introduction(abstract: str, name: str) -> None:
    assert name_and_title(abstract)[0] == name


@pytest.mark.parametrize(
    "abstract",
    [
        # Someone else's model doing well, named once as a comparison.
        "We study calibration. Strong baselines such as GPT-4o achieve high accuracy, but "
        "their confidence is poorly calibrated.",
        # A mention without evidence of ownership.
        "We study exploration. We evaluate on MiniGrid and Procgen and report the returns.",
    ],
)
def test_mentioned_names_are_not_owned(abstract: str) -> None:
    assert name_and_title(abstract)[0] == ""
