"""The reader's work: annotations and reading lists, in memory first, saved as YAML.

- :mod:`.annotations`: the service both fronts call (triage, stars, tags, notes, lists,
  undo, the background saver);
- :mod:`.reading_lists`: named, ordered lists of paper ids;
- :mod:`.overlay`: the annotations as searchable sets, which the index reads at query time;
- :mod:`.file_store`: one YAML file's records (atomic save, file lock, merge with another
  process's save, a parse cache); :mod:`.merge`: the three-way merge of one record;
- :mod:`.schema`, :mod:`.yaml_format`, :mod:`.own_layout`: what a file holds, reading
  and writing it as YAML;
- :mod:`.citekeys` (citation keys once given out) and :mod:`.bib_links` (reading lists
  linked to ``.bib`` files): small files written the same way.
"""

from paper_tui.store.annotations import STATUSES, Annotation, Annotations
from paper_tui.store.reading_lists import ReadingList, ReadingLists

__all__ = ["STATUSES", "Annotation", "Annotations", "ReadingList", "ReadingLists"]
