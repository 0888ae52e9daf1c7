"""Naming: which of several introduced names the paper is about (naming.choice.pick)."""

from __future__ import annotations

import pytest

from paper_tui.naming import name_and_title


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        # A module introduced first, the framework after it: the framework is talked about.
        ("Specifically, we propose a novel Coarse-to-Fine (CF) decoder layer made of a coarse "
         "layer and a fine layer. With our proposed framework (named CF-DETR), small objects "
         "are found more often. The effectiveness of CF-DETR is validated on COCO. CF-DETR "
         "achieves state-of-the-art results.", "CF-DETR"),
        # A data set introduced on the way to the method the results are about.
        ("We construct SynthPairs, a dataset of paired images. We then propose TwinFuse, a "
         "fusion network trained on it. TwinFuse outperforms prior fusion methods, and "
         "TwinFuse can run in real time.", "TwinFuse"),
        # A name with no introducing phrase, but owned and the subject of the results,
        # beats a data set introduced on the way.
        ("To study this, we first build LabelMix, a small corpus of mixed labels. Our "
         "FlowTagger then tags each token with a learned flow. FlowTagger outperforms strong "
         "baselines, and FlowTagger can be trained in an hour.", "FlowTagger"),
        # Another spelling of the introduced name does not replace it.
        ("We propose AutoProteinEngine (AutoPE), an agent for protein design. AutoPE "
         "outperforms prior agents and AutoPE can run locally.", "AutoProteinEngine"),
        # The first name stays when nothing else is talked about more.
        ("We present GridWarp, a warping method for documents. We also release DocSet, a "
         "benchmark of scanned pages.", "GridWarp"),
    ],
)
def test_the_name_the_abstract_is_about(abstract: str, name: str) -> None:
    assert name_and_title(abstract)[0] == name
