"""Naming: the introduction patterns added in the recall push (one case each), and the
background terms they must not turn into names."""

from __future__ import annotations

import pytest

from paper_tui.naming import clean, name_and_title


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        # A coined word in the parenthesis after its long form, like an acronym.
        ("In this work we introduce Cached Memory-Guided Video Generation (Corgi) aiming to "
         "generate multi-scene videos.", "Corgi"),
        # "Our X model" opening a sentence.
        ("We learn keypoints at several scales. Our Key.Net model is trained on synthetic "
         "data.", "Key.Net"),
        # A Greek letter as a one-letter prefix.
        ("This paper introduces a real-time dense planar LiDAR SLAM system, named π-LSAM, for "
         "indoor environments.", "π-LSAM"),
        # A long form taken after "called", its short form a few words on.
        ("The proposed approach, called Edge-Preserving Interpolation of Correspondences "
         "(EpicFlow) is fast. EpicFlow outperforms the state of the art.", "EpicFlow"),
        ("We present Sliding and Grasping for Tangle Manipulation 2.0 (SGTM 2.0), a system "
         "that untangles cables.", "SGTM 2.0"),
        ("We call our approach Dynamic Recurrent Acyclic Graphical Neural Networks, or "
         "DRAGNN. We show that DRAGNN is accurate.", "DRAGNN"),
        # A naming word glued to the name by a lost space, and a name in bare braces.
        ("We collect a new dataset of topic transitions, which we callOTTers. We then study "
         "how humans bridge topics.", "OTTers"),
        ("In this paper, we propose {FALCON}, a novel combinatorial optimization framework for "
         "pruning.", "FALCON"),
        ("This paper proposes a novel face detector, named emph{PyramidBox} to handle hard "
         "faces.", "PyramidBox"),
        # "X, a new …" wherever it stands: a new distinctive name glossed by its kind.
        ("We collect a small parallel dataset to train LuxEmbedder, an enhanced sentence "
         "embedding model for Luxembourgish.", "LuxEmbedder"),
        # A coined word closing a sentence after its kind noun.
        ("Based on this idea, we propose a transformer-based rule mining approach, Ruleformer. "
         "It consists of two blocks.", "Ruleformer"),
        # A capitalised name with no article, straight after the verb.
        ("In this paper, we propose Weight Distillation to transfer the knowledge in the "
         "parameters of a large network.", "Weight Distillation"),
        # Adjectives joined by "and" before a long form.
        ("We propose a novel and scalable Commonsense-Aware Knowledge Embedding (CAKE) "
         "framework to extract commonsense.", "CAKE"),
        # An acronym defined later in the introducing sentence, after a preposition.
        ("To accelerate inference, we propose an approach of performing Dynamic Early Exit on "
         "Decoder (DEED). We build a multi-exit model.", "DEED"),
        ("We present a novel framework for weakly supervised volumetric monocular estimation "
         "(VoluMon) that requires few labels.", "VoluMon"),
        # An acronym of background, then the name the system is called.
        ("We propose a novel monocular visual odometry (VO) system called UnDeepVO in this "
         "paper. UnDeepVO is able to estimate pose.", "UnDeepVO"),
        # A coined short name in parentheses after its long form.
        ("Based on this module, we designed the Deformable Volume Network (Devon) which can "
         "estimate flow. Experiments show Devon is fast.", "Devon"),
        # Names joined by "+" or carrying a power.
        ("We present a new algorithm called A*+BFHS for solving problems with unit-cost "
         "operators.", "A*+BFHS"),
        ("We propose a novel deep network called P^3-Net to parallelize trajectory feature "
         "extraction.", "P^3-Net"),
        # A passive right after the name.
        ("Next, to solve the inverse kinematics problem under load, FABRIKv is proposed by "
         "improving a reaching method.", "FABRIKv"),
        # "provide X: a …", "present and analyze the X: a …".
        ("To this end, we provide ShapeStacks: a simulation-based dataset of stacks.",
         "ShapeStacks"),
        ("We present and analyze the Motion Grammar: a novel unified representation for task "
         "decomposition.", "Motion Grammar"),
        # The kind of thing two words after the name, the name in quotes.
        ("Here we present the Flexpoint data format, aiming at replacing 32-bit floats.",
         "Flexpoint"),
        ("In this paper, we propose the “Bias Vector” method for mitigating biases. The Bias "
         "Vector method needs no data.", "Bias Vector"),
        # Any verb, when what follows is new.
        ("In this work, we study a novel convex estimator MixLasso for the estimation of "
         "generalized linear models.", "MixLasso"),
        # "(abbr. X)", and a name called after a long description of a background acronym.
        ("We construct an end-to-end trainable framework named Relation Reasoning Network "
         "(abbr. RR-Net). Experiments show that RR-Net works.", "RR-Net"),
        ("We present a Visual-Inertial-Leg Odometry (VILO) state estimation solution for "
         "legged robots, called Cerberus, which estimates position.", "Cerberus"),
        # "the design of X", "known here as X", "we have recently developed … called X".
        ("We present the design, development, and evaluation of HREyes: biomimetic "
         "communication devices for underwater robots.", "HREyes"),
        ("We propose a coupled approach, known here as StyleCLIPDraw, whereby the drawing is "
         "generated.", "StyleCLIPDraw"),
        ("Robots should be social. We have recently developed a human-size humanoid, called "
         "\"Robovie-IV,\" which will interact with people.", "Robovie-IV"),
        # Two words in the parenthesis after the long form.
        ("We present a new type of probabilistic model which we call DISsimilarity "
         "COefficient Networks (DISCO Nets). DISCO Nets allow us to sample.", "DISCO Nets"),
        # A background acronym, then the name.
        ("To solve this, we propose a novel gaze-guided graph neural network (GNN), GazeGNN, "
         "to use raw eye-gaze data.", "GazeGNN"),
        # A one-letter lower-case prefix.
        ("Calibration matters for regression. Our approach, f-Cal, outperforms existing "
         "uncertainty calibration methods.", "f-Cal"),
        # A sentence-initial passive with a capitalised article.
        ("Background shift hurts re-identification. A Suppression of Background Shift "
         "Generative Adversarial Network (SBSGAN) is proposed to generate images.", "SBSGAN"),
    ],
)
def test_introduction_patterns(abstract: str, name: str) -> None:
    assert name_and_title(abstract)[0] == name


@pytest.mark.parametrize(
    "abstract",
    [
        # A plain initialism defined after a preposition is background, not a contribution.
        "We propose a controller for quadrotors based on model predictive control (MPC) and "
        "show that MPC tracks well.",
        # Degrees of freedom and complexity classes are no names.
        "We present a novel 7-DoF arm for surgery. The 7-DoF arm is light and precise.",
        "We show the problem is NP-hard, a new result for scheduling.",
        # Someone else's name glossed with "a popular …".
        "Models such as BERT, a popular encoder, are widely used; we study their errors.",
        # Textbook methods used by the paper.
        "We develop FedAvg, a federated learning method with client sampling, and prove that "
        "FedAvg converges.",
    ],
)
def test_background_is_still_no_name(abstract: str) -> None:
    assert name_and_title(abstract)[0] == ""


def test_cleaning_ungludes_only_naming_words() -> None:
    assert clean("a framework calledCooperative GAN") == "a framework called Cooperative GAN"
    assert clean("we use KiteNorm and theNet") == "we use KiteNorm and the Net"
    assert clean("the loss $x^{2}$ stays") == "the loss $x^{2}$ stays"
    assert clean("which we term $HS^2$") == "which we term HS$^2$"
