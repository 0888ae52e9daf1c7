"""The words behind :mod:`paper_tui.naming`: field terms that are never a paper's
name, capitalised words that are no names, the kinds of thing a contribution is, and the
words that may follow a name."""

from __future__ import annotations

# Names of the field, never of one paper's contribution.
BACKGROUND = frozenset({
    "AI", "ML", "NLP", "CV", "RL", "DRL", "MARL", "LLM", "VLM", "MLLM", "LVLM", "LM", "PLM",
    "GPT", "ChatGPT", "DNN", "CNN", "RNN", "GNN", "GAN", "VAE", "MLP", "SGD", "SVM", "API",
    "GPU", "CPU", "TPU", "SOTA", "MoE", "RAG", "SFT", "RLHF", "DPO", "PPO", "QA", "VQA", "KG",
    "NeRF", "ViT", "CLIP", "BERT", "LSTM", "U.S", "USA", "UK", "EU", "English", "Chinese",
    "Python", "PyTorch", "TensorFlow", "GitHub", "Internet", "Transformer", "Transformers",
    # metrics, sensors and textbook methods
    "F1", "AUC", "AUROC", "BLEU", "ROUGE", "mAP", "IoU", "PSNR", "SSIM", "FID", "RMSE", "MSE",
    "MAE", "NDCG", "MRR", "CRPS", "RGB", "RGB-D", "LiDAR", "EEG", "MRI", "fMRI", "CT", "GPS",
    "IMU", "UAV", "EKF", "PID", "MPC", "SLAM", "LQR", "ICP", "RANSAC", "PCA", "ICA", "HMM",
    "CRF", "KNN", "GP", "NMF", "SVD", "MCMC", "EM", "ADMM", "MDP", "POMDP", "DQN", "NPG",
    "Q-learning", "LASSO", "Lasso", "ZMP", "MST", "PSO", "PR-AUC", "AUPRC", "MAML", "PINN",
    "DOF", "3-DOF", "6-DOF", "7-DOF", "II", "III", "IV", "ResNet", "ResNet-50", "ImageNet",
    "COCO", "MNIST", "CIFAR-10", "CIFAR-100", "KITTI",
    # tasks, problem classes and standard algorithms
    "NER", "POS", "ASR", "TTS", "MT", "NMT", "OCR", "HRI", "HCI", "NBV", "UDA", "VR", "AR",
    "LP", "ILP", "MILP", "QP", "SDP", "NMPC", "DAG", "MAP", "MLE", "KL", "ELBO", "MMD", "BO",
    "NAS", "IRL", "GAIL", "TD", "DDPG", "SAC", "TRPO", "A3C", "SVRG", "UCB", "SIFT", "SURF",
    "HOG", "ORB", "ConvNet", "ConvNets", "ROS", "FLOPS", "FLOPs", "LOOCV", "BoW", "LoRA",
    "MS-COCO", "MIMIC", "MINLP", "SWaP", "BLSTM", "Bi-LSTM", "NP-hard", "NP-complete", "k-NN",
    "CoP", "CoM", "pHRI", "LfD", "MoG", "GMM", "UKF", "AUV", "PEFT", "AIGC", "LWIR", "AlexNet",
    "Seq2Seq", "FedAvg", "LSH", "RRT", "RRT*", "MCTS", "CVaR", "SQP", "GPR", "GRU", "MMSE",
    "SARSA", "Sarsa", "RGBD", "MSCKF", "EMG", "PAC", "Markov", "NLU", "NLG", "PDE", "ODE",
    "SDE", "LDA", "KKT", "MAPF", "SoC", "VINS", "VIO", "NTM", "Thereupon",
})

# Capitalised adjectives: "the Bayesian approach" names nothing.
PROPER_ADJECTIVES = frozenset({
    "Bayesian", "Gaussian", "Markov", "Markovian", "Monte", "Euclidean", "Riemannian",
    "Hessian", "Boolean", "Fourier", "Lagrangian", "Laplacian", "Newton", "Newtonian",
    "Wasserstein", "Shapley", "Hilbert", "Dirichlet", "Poisson", "Bernoulli", "Hamiltonian",
    "Lipschitz", "Nash", "Pareto", "Kalman", "Cartesian", "Gibbs", "Langevin", "Boltzmann",
    "English", "Chinese", "Japanese", "German", "French", "Arabic", "Spanish", "Indian",
    "European", "American", "Deep", "Neural", "Linear", "Stochastic", "Adaptive",
})

# Capitalised words that begin a noun phrase rather than name something.
FUNCTION_WORDS = frozenset({
    "A", "An", "The", "This", "These", "That", "Those", "Our", "We", "It", "Its", "In", "On",
    "To", "For", "With", "By", "Of", "As", "At", "From", "Here", "Such", "Each", "Both", "All",
    "One", "Two", "Three", "First", "Second", "Finally", "However", "Specifically", "Then",
    "Moreover", "Furthermore", "Additionally", "Unlike", "Instead", "Using", "Based", "When",
    "While", "Given", "Existing", "Previous", "Prior", "Recent", "Most", "Many", "Some",
    "Besides", "Overall", "Thus", "Hence", "Therefore", "Consequently", "Importantly",
    "Notably", "Meanwhile", "Also", "Lastly", "Similarly", "Likewise", "Empirically",
    "Experimentally", "Theoretically", "Together", "Again", "Still", "Yet", "Nevertheless",
    "After", "Before", "During", "Since", "Following", "Because", "Although", "Though",
    "Whereas", "Despite", "Due", "Through", "Towards", "Toward", "Without", "Within",
    "Beyond", "Across", "Under", "Over", "Via", "Upon", "Among", "Inspired", "Motivated",
    "Starting", "Compared", "According", "Considering", "Taking", "Aiming", "Regarding",
    "Once", "Where", "If", "Like", "Apart", "Next", "Later", "Now",
})

# What a contribution is ("a new method X", "the X benchmark").
KINDS = frozenset({
    "method", "approach", "model", "framework", "algorithm", "system", "architecture",
    "benchmark", "dataset", "corpus", "technique", "pipeline", "tool", "toolkit", "library",
    "network", "agent", "estimator", "scheme", "strategy", "solution", "platform", "protocol",
    "suite", "metric", "module", "procedure", "objective", "detector", "planner", "policy",
    "environment", "simulator", "package", "language", "robot", "device", "mechanism", "loss",
    "regularizer", "optimizer", "layer", "operator", "controller", "prover", "engine", "game",
    "challenge", "resource", "paradigm", "attack", "defense", "encoder", "decoder", "classifier",
    "measure", "score", "criterion", "family", "collection", "testbed", "gripper", "hand",
    "interface", "compiler", "sampler", "solver", "generator", "learner", "filter", "kernel",
    "index", "head", "block", "unit", "cell", "variant", "extension", "formulation", "task",
    "set", "database", "repository", "specification", "lexicon", "treebank", "ontology",
    "representation", "contribution", "embedding", "descriptor", "feature", "format", "sensor",
})

# Words a name may be followed by (anything else lowercase makes it a modifier).
FOLLOW = frozenset({
    "that", "which", "to", "for", "with", "on", "in", "as", "is", "by", "via", "and", "from",
    "over", "across", "under", "at", "into", "through", "using", "whose", "where", "built",
    "trained", "designed", "based", "consisting", "comprising", "containing", "capable",
    "achieves", "leverages", "uses", "enables", "learns", "combines", "outperforms", "along",
    "together", "specifically", "inspired", "able", "tailored", "aimed", "aiming", "exploits",
    "a", "an", "without", "toward", "towards", "beyond", "equipped", "dedicated",
}) | KINDS

# Nouns in -ing: "a CAscade Deep REinforcement learning framework" continues a long form.
ING_NOUNS = frozenset({"learning", "training", "embedding", "modeling", "modelling",
                       "reasoning", "planning", "matching", "sampling", "tracking", "mapping",
                       "encoding", "clustering", "ranking", "hashing", "pruning", "pooling",
                       "tuning", "prompting", "editing", "grounding", "parsing", "captioning",
                       "understanding", "answering", "forecasting", "inpainting", "rendering"})

# After a name used as a subject ("our approach X can …").
VERBISH = frozenset({"can", "could", "may", "might", "will", "would", "should", "must",
                     "also", "not", "significantly", "consistently", "further", "then",
                     "first", "only", "successfully", "substantially", "clearly"})
