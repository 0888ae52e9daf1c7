"""Real records of Paper Copilot's paperlists (``../shared/corpus/paperlists``: iclr2018,
acmmm2024, acl2022, ijcai2022, colm2024, nips2018) with what the venue says about them,
their values copied as the importers normalise them, as :class:`Paper` records: for the
tests of searching, sorting, counting and showing those values."""

from __future__ import annotations

import dataclasses
import math

from paper_tui.importers.common import make_paper
from paper_tui.model import Paper


def venue_paper(title: str, venue: str, year: int, abstract: str = "",
                **signals: object) -> Paper:
    """A paper as an importer makes it, with what the venue says (``signals``)."""
    paper = make_paper(source="paperlists", title=title, abstract=abstract, venue=venue,
                       year=year, authors=("A. Author",))
    return dataclasses.replace(paper, **signals)


def mean(values: tuple[float, ...]) -> float:
    return sum(values) / len(values)


def spread(values: tuple[float, ...]) -> float:
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def reviewed(ratings: tuple[float, ...], confidences: tuple[float, ...]) -> dict:
    return {"ratings": ratings, "confidences": confidences, "rating": mean(ratings),
            "rating_spread": spread(ratings), "confidence": mean(confidences)}


CORL = venue_paper(
    "SE(2)-Equivariant Pushing Dynamics Models for Tabletop Object Manipulations", "CoRL",
    2022, "For tabletop object manipulation tasks, learning an accurate pushing dynamics "
    "model, which predicts the objects' motions when a robot pushes an object, is very "
    "important. In this work, we claim that an ideal pushing dynamics model should have the "
    "SE(2)-equivariance property, i.e., if tabletop objects' poses and pushing action are "
    "transformed by some same planar rigid-body transformation, then the resulting motion "
    "should also be the result of the same transformation. Existing state-of-the-art "
    "data-driven approaches do not have this equivariance property, resulting in "
    "less-than-desirable learning performances. In this paper, we propose a new neural "
    "network architecture that by construction has the above equivariance property. Through "
    "extensive empirical validations, we show that the proposed model shows significantly "
    "improved learning performances over the existing methods. Also, we verify that our "
    "pushing dynamics model can be used for various downstream pushing manipulation tasks "
    "such as the object moving, singulation, and grasping in both simulation and real robot "
    "experiments. Code is available at https://github.com/seungyeon-k/SQPDNet-public.",
    decision="oral", decision_text="Oral", ratings=(6.0, 6.0, 6.0, 6.0), rating=6.0,
    rating_spread=0.0, citations=13, citations_date="2026-12-01",
    code="https://github.com/seungyeon-k/SQPDNet-public", track="main",
    affiliations=(("Seoul National University",),) * 4, countries=("South Korea",))
"""corl2022: an oral with its four ratings (no confidence given), citations, code,
affiliations: the abstract view's snapshot."""

PAPERS = [
    # iclr2018: decisions with the reviews (rejected and withdrawn papers too)
    venue_paper("Spectral Normalization for Generative Adversarial Networks", "ICLR", 2018,
                "A weight normalization technique to stabilize the training of the "
                "discriminator of generative adversarial networks.", decision="oral",
                decision_text="Oral", citations=5867, citations_date="2026-12-01",
                code="https://github.com/pfnet-research/sngan_projection",
                **reviewed((7, 7, 8), (4, 2, 3))),
    venue_paper("Characterizing Adversarial Subspaces Using Local Intrinsic Dimensionality",
                "ICLR", 2018, "Adversarial examples lie in subspaces of high local intrinsic "
                "dimensionality.", decision="oral", decision_text="Oral", citations=903,
                code="https://github.com/xingjunm/lid_adversarial_subspace_detection",
                **reviewed((6, 7, 8), (1, 4, 3))),
    venue_paper("Thinking like a machine — generating visual rationales through latent space "
                "optimization", "ICLR", 2018, "Generative models explain a classifier's "
                "decision.", decision="reject", decision_text="Reject", citations=0,
                **reviewed((4, 7, 8), (3, 4, 2))),
    venue_paper("Deep Boosting of Diverse Experts", "ICLR", 2018, "A boosting method for deep "
                "networks with diverse experts.", decision="reject", decision_text="Reject",
                citations=1, **reviewed((2, 5, 6), (5, 4, 3))),
    venue_paper("No Spurious Local Minima in a Two Hidden Unit ReLU Network", "ICLR", 2018,
                "Local minima of a small ReLU network.", decision="workshop",
                decision_text="Workshop", citations=13, **reviewed((4, 6, 6), (4, 3, 2))),
    venue_paper("Robust Task Clustering for Deep and Diverse Multi-Task and Few-Shot Learning",
                "ICLR", 2018, "Task clustering for few-shot learning.", decision="withdrawn",
                decision_text="Withdraw", citations=3, **reviewed((4, 5, 5), (4, 4, 4))),
    # acmmm2024: no abstracts, a primary area (its "[Content] " prefix gone), no citations
    venue_paper("Cognition-Supervised Saliency Detection: Contrasting EEG Signals and Visual "
                "Stimuli", "ACMMM", 2024, decision="oral", decision_text="Oral",
                area="Emotional and Social Signals",
                affiliations=(("University of Helsinki",), ("University of Helsinki",)),
                countries=("Finland",), **reviewed((2, 3, 4, 6), (3, 2, 1, 3))),
    venue_paper("Zero-Shot Character Identification and Speaker Prediction in Comics via "
                "Iterative Multimodal Fusion", "ACMMM", 2024, decision="oral",
                decision_text="Oral", area="Multimodal Fusion",
                affiliations=(("The University of Tokyo",),) * 4, countries=("Japan",),
                **reviewed((3, 4, 5), (3, 3, 3))),
    venue_paper("Multimodal Fusion of Speech and Vision for Emotion", "ACMMM", 2024,
                decision="poster", decision_text="Poster", area="Vision and Language",
                affiliations=(("Tsinghua University",), ("Tsinghua University",)),
                countries=("China",), rating=5.75, rating_spread=0.43),  # only rating_avg given
    # acl2022: awards, findings, citations; no reviews
    venue_paper("Active Evaluation: Efficient NLG Evaluation with Few Pairwise Comparisons",
                "ACL", 2022, "Active evaluation of language generation systems with dueling "
                "bandits.", decision="accept", decision_text="Long", award=True, citations=8,
                code="https://github.com/akashkm99/duelnlg",
                affiliations=(("Microsoft Bangalore, India",
                          "Indian Institute of Technology Madras RBCDSAI, IIT Madras"),
                         ("Indian Institute of Technology Madras RBCDSAI, IIT Madras",)),
                countries=("India",)),
    venue_paper("Compression of Generative Pre-trained Language Models via Quantization", "ACL",
                2022, "Quantization of generative language models.", decision="accept",
                decision_text="Long", award=True, citations=101,
                affiliations=(("The University of Hong Kong",), ("Huawei Noah’s Ark Lab",)),
                countries=("China",)),
    venue_paper("A Feasibility Study of Answer-Agnostic Question Generation for Education",
                "ACL", 2022, "Question generation from textbooks.", decision="findings",
                decision_text="Findings", award=False, citations=41,
                code="https://github.com/liamdugan/summary-qg",
                affiliations=(("University of Pennsylvania",),), countries=("United States",)),
    # ijcai2022: primary area, code
    venue_paper("3E-Solver: An Effortless, Easy-to-Update, and End-to-End Solver with "
                "Semi-Supervised Learning for Breaking Text-Based Captchas", "IJCAI", 2022,
                "Breaking text captchas with semi-supervised learning.", decision="poster",
                decision_text="Poster", area="Multidisciplinary Topics and Applications",
                citations=4, code="https://github.com/SJTU-dxw/3E-Solver-CAPTCHA",
                affiliations=(("Shanghai Jiao Tong University",),
                         ("Shanghai Jiao Tong University", "NIO Security Research")),
                countries=("China",)),
    # colm2024: reviews and affiliations with countries
    venue_paper("InstructAV: Instruction Fine-tuning Large Language Models for Authorship "
                "Verification", "COLM", 2024, "Instruction fine-tuning of language models for "
                "authorship verification.", decision="poster", decision_text="Poster",
                citations=1, affiliations=(("Singapore University of Technology and Design",),
                                      ("DSO",)),
                countries=("Singapore",), **reviewed((5, 7, 7, 7), (4, 3, 3, 5))),
    venue_paper("ReAct Meets ActRe: Autonomous Annotation of Agent Trajectories for Contrastive "
                "Self-Training", "COLM", 2024, "Language agents annotate their own trajectories.",
                decision="poster", decision_text="Poster", citations=9,
                affiliations=(("Tsinghua University",), ("Alibaba Group",)),
                countries=("China", "United States"), **reviewed((4, 6, 7, 7), (3, 3, 3, 3))),
    # nips2018: spotlight and oral, citations, no reviews
    venue_paper("(Probably) Concave Graph Matching", "NeurIPS", 2018, "Concave relaxations of "
                "graph matching.", decision="spotlight", decision_text="Spotlight", citations=8,
                affiliations=(("Weizmann Institute of Science",),) * 2, countries=("Israel",)),
    venue_paper("A Retrieve-and-Edit Framework for Predicting Structured Outputs", "NeurIPS",
                2018, "Retrieve a training example, then edit it into the output.",
                decision="oral", decision_text="Oral", citations=193,
                affiliations=(("Department of Computer Science, Stanford University",),),
                countries=("United States",)),
    CORL,
    # a record the venue says nothing about
    venue_paper("Generative Models Without Any Venue Signal", "arXiv", 2024,
                "Generative adversarial networks, again."),
]
