"""Naming, round 4: a name set off after its description late in the introducing sentence
(naming.apposed), short forms after long capitalised phrases, a Greek letter ending a name,
and the lists and uses that must stay nameless."""

from __future__ import annotations

import pytest

from paper_tui.naming import Candidate, name_and_title, pick


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        # The name after its description, late in the sentence the verb opens.
        ("We propose to address face reconstruction in the wild by using a multi-metric "
         "regression network, MMFace, to align a 3D face model to an input image.", "MMFace"),
        ("This paper proposes a novel visual SLAM method with dense planar reconstruction "
         "using a monocular camera: TT-SLAM. The method exploits planar trackers.", "TT-SLAM"),
        ("We present a new extension to the lightweight approach, C3, which enables efficient "
         "re-execution of proposals.", "C3"),
        ("We propose a novel coarse-to-fine unsupervised domain adaptation (UDA) model - "
         "CALI. Our aim is to transfer the knowledge.", "CALI"),
        ("This paper proposes message-oriented networked-robot architecture, or MONEA, as an "
         "efficient development platform.", "MONEA"),
        ("We present a novel, modular, 3D printed, fibre jamming tendon unit for use in a "
         "stiffness-tunable compliant robotic ankle, or Jammkle. Its design is new.",
         "Jammkle"),
        # A long form, a kind of thing, then its short form in quotes or commas.
        ("We pre-train soft prompts. We name this Pre-trained Prompt Tuning framework "
         "“PPT”. To ensure the generalization of PPT, we unify the tasks.", "PPT"),
        ("To address this, we build Body-Expression-Audio-Text dataset, BEAT, which has 76 "
         "hours of data.", "BEAT"),
        # A quoted long form, then its acronym.
        ("We introduce a new benchmark \"Humans Interacting with Common Objects\" (HICO) for "
         "recognizing human-object interactions (HOI).", "HICO"),
        # A star ends a name.
        ("We present a novel path planning algorithm T* that uses the A* search procedure "
         "opportunistically. Our results show that T* achieves an order of magnitude "
         "improvement.", "T*"),
        # An apostrophe before a final capital stays in the name.
        ("This paper presents Grasp’D, an approach to grasp synthesis by differentiable "
         "contact simulation.", "Grasp’D"),
        # A distinctive name after its description, then ", as".
        ("We propose joint-probability action inference JA-TN, as a way to improve the "
         "efficiency of the transporter network.", "JA-TN"),
        # A naming word inside a parenthesis.
        ("In this paper, we present the design and control strategies of a novel quadruped "
         "climbing robot (named Magneto) with three degrees of freedom.", "Magneto"),
        # A long form cut at three words used to be taken; its short form is the name.
        ("Based on this dataset, we introduce a task framework, called Cross-lingual "
         "Open-Retrieval Question Answering (XOR QA), that consists of three new tasks.",
         "XOR QA"),
        ("We introduce a novel federated learning framework named Multimodal Large Language "
         "Model Assisted Federated Learning (MLLM-LLaVA-FL) which employs MLLMs.",
         "MLLM-LLaVA-FL"),
        # An acronym defined after an apposition does not hide the name before it.
        ("To address these challenges, we propose Propulsion, a novel parameter-efficient "
         "fine-tuning (PEFT) method designed to optimize task performance.", "Propulsion"),
        # "the X <kind>" with the kind three words on.
        ("In this paper, we propose the GeoCueDepth convolutional neural network to exploit "
         "local geometric cues.", "GeoCueDepth"),
        # Quotes around a name right after the cue.
        ("Rather than fixing the network at training time, we train a \"Dynamic-Net\" that "
         "can be modified at inference time.", "Dynamic-Net"),
        # A math symbol leads the name.
        ("In this paper, we propose the ∞-former, which extends the vanilla transformer with "
         "an unbounded long-term memory.", "∞-former"),
        ("In this work, we propose ∇SLAM (gradSLAM), a methodology for posing SLAM systems "
         "as differentiable computational graphs.", "∇SLAM"),
        # A trade mark ends a name.
        ("We propose EMS®, a cloud-enabled massive computational experiment management "
         "system.", "EMS®"),
        # "our X" followed by an adverb and its verb.
        ("We refine the pose with a second stage. Extensive experiments show that our "
         "Uni6Dv2 reliably and robustly eliminates noise.", "Uni6Dv2"),
        # A name whose effectiveness the abstract shows needs a little less evidence.
        ("We weigh tabular features with a transformer. Our extensive experimental results "
         "across real-world datasets show the effectiveness of TFWT and highlight its "
         "potential.", "TFWT"),
        # A Greek letter in math ends a name.
        ("To study policy mobilization, we introduce the Mobi-$\\pi$ framework, which "
         "includes metrics.", "Mobi-$\\pi$"),
    ],
)
def test_late_names(abstract: str, name: str) -> None:
    assert name_and_title(abstract)[0] == name


@pytest.mark.parametrize(
    "abstract",
    [
        # A list after the verb, not a name set off after its description.
        "We present a generalization of the Cauchy/Lorentzian, Geman-McClure, Welsch and "
        "generalized Charbonnier loss functions.",
        "We show that the resulting algorithms relate to gradient clipping, RMSprop, Adagrad "
        "and Adam, popular optimizers.",
        "This article presents a novel approach to fuse data from various sensors (camera, "
        "LIDAR, radar, IMU) for pedestrian tracking.",
        # A plural, or a coined word the paper uses.
        "In this paper a new method for calculating the stiffness of parallel kinematic "
        "machines with six links, or Hexapods, is presented.",
        "We propose a fully decentralized control infrastructure based on a swarm-specific "
        "scripting language, Buzz. We describe the infrastructure.",
        # A complexity is no short form of the word before it.
        "The problem is solved optimally in O(N3) time. Since this is too slow for large "
        "datasets, we present a O(N2) time greedy algorithm and prove its bound.",
        # Textbook terms the abstract talks about are no names.
        "Fisher linear discriminant analysis (LDA) can be sensitive to the problem data. We "
        "show that LDA can be made robust to it, and our robust LDA achieves good accuracy.",
        # Someone else's method the paper builds on.
        "We build on a meta-learning algorithm, F-PACOH, capable of providing reliable "
        "priors.",
        # A quoted term that modifies a noun, or a possessive, is no name.
        "We developed a \"General Position\" searching algorithm for the flutist robot.",
        "These ill-posedness problems are known as “Bernstein’s problem” and are important.",
        # A math term with a Greek letter is no name.
        "We propose an algorithm that finds $\\epsilon$-optimal policies, a new result.",
        # A long capitalised phrase with no short form after it names nothing.
        "This video shows our pose estimation system, a novel 3D map structure called Multi "
        "Volume Occupancy Grids, and the development of a groundstation.",
    ],
)
def test_lists_and_uses_stay_nameless(abstract: str) -> None:
    assert name_and_title(abstract)[0] == ""


def test_an_acronym_of_lower_case_words_loses_a_tie() -> None:
    text = ("The resulting plane sweep volume (PSV) is used. We propose FaDIV-Syn for view "
            "synthesis. FaDIV-Syn handles depth.")
    term = Candidate("PSV", 15, 48, True, expansion="plane sweep volume")
    name = Candidate("FaDIV-Syn", 67, 76, True)
    assert pick([term, name], text) is name
    # A capitalised long form is a coined name and keeps the tie (the first one wins).
    coined = Candidate("PSV", 15, 48, True, expansion="Plane Sweep Volume")
    assert pick([coined, name], text) is coined


def test_a_title_acronym_needs_a_space_before_its_parenthesis() -> None:
    assert name_and_title("We study accidents.", "Graph(Graph): A Nested Framework")[0] == \
        "Graph(Graph)"
    assert name_and_title("We study filters.", "Kalman Normalization (KN): Fast")[0] == "KN"
