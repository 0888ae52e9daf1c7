"""Conference names: the short codes sources use, the name readers use, the proceedings.

One table for importers (``nips`` -> ``NeurIPS``) and citations (``booktitle``).
"""

from __future__ import annotations

# code -> (display name, proceedings title used as a BibTeX booktitle)
VENUES: dict[str, tuple[str, str]] = {
    "neurips": ("NeurIPS", "Advances in Neural Information Processing Systems"),
    "nips": ("NeurIPS", "Advances in Neural Information Processing Systems"),
    "icml": ("ICML", "Proceedings of the International Conference on Machine Learning"),
    "iclr": ("ICLR", "International Conference on Learning Representations"),
    "acl": ("ACL", "Proceedings of the Annual Meeting of the Association for "
            "Computational Linguistics"),
    "emnlp": ("EMNLP", "Proceedings of the Conference on Empirical Methods in Natural "
              "Language Processing"),
    "naacl": ("NAACL", "Proceedings of the Conference of the North American Chapter of the "
              "Association for Computational Linguistics"),
    "coling": ("COLING", "Proceedings of the International Conference on Computational "
               "Linguistics"),
    "cvpr": ("CVPR", "Proceedings of the IEEE/CVF Conference on Computer Vision and "
             "Pattern Recognition"),
    "iccv": ("ICCV", "Proceedings of the IEEE/CVF International Conference on Computer Vision"),
    "eccv": ("ECCV", "Proceedings of the European Conference on Computer Vision"),
    "wacv": ("WACV", "Proceedings of the IEEE/CVF Winter Conference on Applications of "
             "Computer Vision"),
    "aaai": ("AAAI", "Proceedings of the AAAI Conference on Artificial Intelligence"),
    "ijcai": ("IJCAI", "Proceedings of the International Joint Conference on Artificial "
              "Intelligence"),
    "aistats": ("AISTATS", "Proceedings of the International Conference on Artificial "
                "Intelligence and Statistics"),
    "uai": ("UAI", "Proceedings of the Conference on Uncertainty in Artificial Intelligence"),
    "colt": ("COLT", "Proceedings of the Conference on Learning Theory"),
    "kdd": ("KDD", "Proceedings of the ACM SIGKDD Conference on Knowledge Discovery and "
            "Data Mining"),
    "www": ("WWW", "Proceedings of the ACM Web Conference"),
    "sigir": ("SIGIR", "Proceedings of the International ACM SIGIR Conference on Research "
              "and Development in Information Retrieval"),
    "corl": ("CoRL", "Proceedings of the Conference on Robot Learning"),
    "rss": ("RSS", "Proceedings of Robotics: Science and Systems"),
    "icra": ("ICRA", "Proceedings of the IEEE International Conference on Robotics and "
             "Automation"),
    "iros": ("IROS", "Proceedings of the IEEE/RSJ International Conference on Intelligent "
             "Robots and Systems"),
    "tmlr": ("TMLR", "Transactions on Machine Learning Research"),
    "jmlr": ("JMLR", "Journal of Machine Learning Research"),
    "colm": ("COLM", "Conference on Language Modeling"),
    "mlsys": ("MLSys", "Proceedings of Machine Learning and Systems"),
    "3dv": ("3DV", "International Conference on 3D Vision"),
    "siggraph": ("SIGGRAPH", "ACM SIGGRAPH Conference Proceedings"),
    "siggraphasia": ("SIGGRAPH Asia", "ACM SIGGRAPH Asia Conference Proceedings"),
    "ismir": ("ISMIR", "Proceedings of the International Society for Music Information "
              "Retrieval Conference"),
    "interspeech": ("Interspeech", "Proceedings of Interspeech"),
    "icassp": ("ICASSP", "Proceedings of the IEEE International Conference on Acoustics, "
               "Speech and Signal Processing"),
}

_BY_NAME = {display.lower(): code for code, (display, _) in VENUES.items()}


def _key(venue: str) -> str:
    return "".join(ch for ch in venue.lower() if ch.isalnum())


def display_venue(venue: str) -> str:
    """``nips`` or ``NIPS`` -> ``NeurIPS``; unknown venues come back as given."""
    entry = VENUES.get(_key(venue))
    return entry[0] if entry else venue.strip()


def proceedings(venue: str) -> str:
    """The proceedings title for a BibTeX ``booktitle``; unknown venues come back as given."""
    key = _key(venue)
    entry = VENUES.get(key) or VENUES.get(_BY_NAME.get(venue.strip().lower(), ""))
    return entry[1] if entry else venue.strip()


_BY_PROCEEDINGS = {" ".join(title.lower().split()): display
                   for display, title in VENUES.values()}


def from_proceedings(name: str) -> str:
    """The venue a proceedings title names (``Advances in Neural Information Processing
    Systems`` -> ``NeurIPS``, as a BibTeX ``booktitle`` says it); else ``name`` as given."""
    return _BY_PROCEEDINGS.get(" ".join(name.lower().split()), name.strip())
