"""One team sync: take in what the repo has, commit this library's changes, fetch, merge,
take in the merge, push. Serialised per library by a file lock.

The library's own stores stay the truth: a sync that stops at any step (no network, a
refused login, a conflict someone left in the repo) has changed nothing local, and the
next one starts over. What the local stores last took in from the repo is the commit
``State.agreed``; when the repo moved past it without us (a stopped sync, a plain
``git pull`` in the team directory), the next sync takes in that difference first.

Taking in goes through a second :class:`~.file_store.YamlStore` on the library's files,
as another process would: a running app merges it with its own unsaved work and refreshes.

The repo is a team-mate's to write, so what it holds is data, never instructions: files are
read from git's objects or through :mod:`.files` (never through a link), each within
:data:`~.repo.MAX_BYTES` and :data:`~.repo.MAX_RECORDS`; a member is a plain name; a record
missing from a file is no news (only a change that arrives changes a field); a paper list
that fails to import is quarantined, not retried until it changes.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import filelock

from paper_tui import paths
from paper_tui.errors import PaperTuiError, StoreError
from paper_tui.holdings.sources import SourceStore, checksum
from paper_tui.model import Paper
from paper_tui.store import Annotations
from paper_tui.store.citekeys import CiteKeys
from paper_tui.store.file_store import YamlStore
from paper_tui.store.merge import stamp, stamp_time
from paper_tui.store.schema import Record, Schema
from paper_tui.team import assignments, files, repo
from paper_tui.team import reviews as team_reviews
from paper_tui.team.git import NETWORK_TIMEOUT, Git, GitError, last_line, remote_fault
from paper_tui.team.merge import merge_one
from paper_tui.trust.inert import inert_line

if TYPE_CHECKING:
    from paper_tui.importers import ImportReport


class PaperLookup(Protocol):
    def get(self, paper_id: str) -> Paper | None: ...


class SyncedLibrary(Protocol):
    """What a sync needs of a library (``paper_tui.library.Library`` is one): its
    directory, the reader's stores, its paper lists, and a paper's title."""

    @property
    def root(self) -> Path: ...
    @property
    def annotations(self) -> Annotations: ...
    @property
    def sources(self) -> SourceStore: ...
    @property
    def index(self) -> PaperLookup: ...
    @property
    def citekeys(self) -> CiteKeys: ...
    def import_paths(self, targets: Iterable[Path | str]) -> ImportReport: ...


Progress = Callable[[str], None]
"""``progress(message)``: what the sync is doing now ("fetching", "merging", …)."""
LOCK_TIMEOUT = 600.0
PUSH_TRIES = 3


@dataclass
class SyncReport:
    """What came in and went out."""

    papers_from: dict[str, int] = field(default_factory=dict)  # member -> papers changed
    lists_from: dict[str, int] = field(default_factory=dict)  # member(s) -> lists changed
    sources_in: list[tuple[str, int]] = field(default_factory=list)  # file, new papers
    reviews_in: list[str] = field(default_factory=list)  # sources whose reviews came
    assigned_to_you: int = 0  # papers the team's split newly gives this member
    sent: int = 0
    unsent: int = 0  # committed but not pushed (the push failed)
    notes: list[str] = field(default_factory=list)  # things worth a line of their own

    def summary(self) -> str:
        came = [_count(n, "paper") + f" from {who}" for who, n in self.papers_from.items() if n]
        came += [_count(n, "list") + f" from {who}" for who, n in self.lists_from.items() if n]
        came += [f"paper list {name} ({_count(n, 'new paper')})" for name, n in self.sources_in]
        came += [f"the reviews of {sid}" for sid in self.reviews_in]
        if self.assigned_to_you:
            came.append(f"{_count(self.assigned_to_you, 'paper')} assigned to you "
                        "(search assigned:me)")
        went = f"sent {_count(self.sent, 'change')}" if self.sent else "nothing to send"
        return f"{', '.join(came) or 'nothing new'}; {went}"


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}" + ("" if n == 1 else "s")


def run_sync(library: SyncedLibrary, progress: Progress | None = None, *,
             remote: str | None = None, name: str | None = None) -> str:
    """Sync ``library`` with its team; returns the one-line summary. For the app's worker
    thread: ``progress`` is called from that thread; :class:`PaperTuiError` (one line) when
    the sync could not finish. What it takes in reaches the app as a change made by another
    process (the annotation service's change listeners fire)."""
    return sync(library, remote=remote, name=name, progress=progress).summary()


def sync(library: SyncedLibrary, *, remote: str | None = None, name: str | None = None,
         progress: Progress | None = None) -> SyncReport:
    with team_lock(library.root):
        return _Sync(library, progress).run(remote, name)


def team_lock(root: Path) -> contextlib.AbstractContextManager[None]:
    """The library's team lock: one sync (or change to the assignments) at a time."""
    return _held(root / ".team.lock", f"another sync of {root} has run for "
                 f"{LOCK_TIMEOUT:.0f} s; try again later")


@contextlib.contextmanager
def _held(path: Path, busy: str) -> Iterator[None]:
    """``path``'s file lock, held for the block; ``busy``: the one line when another
    process holds it for :data:`LOCK_TIMEOUT`."""
    lock = filelock.FileLock(str(path), timeout=LOCK_TIMEOUT)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise PaperTuiError(busy) from None
    try:
        yield
    finally:
        lock.release()


@dataclass(frozen=True)
class _Entry:
    """A file in a commit's tree: git's mode (``100644`` a file, ``120000`` a symbolic link,
    ``160000`` another repo), its blob and size."""

    mode: str
    blob: str
    size: int

    @property
    def regular(self) -> bool:
        return self.mode in ("100644", "100755")


def _refusal(rel: str, entry: _Entry) -> files.TeamFileError | None:
    """Why the team file ``rel`` is not read (not a regular file, or over
    :data:`~.repo.MAX_BYTES`); None when it may be."""
    if not entry.regular:
        return files.TeamFileError(f"{rel} in the team repo is a symbolic link or another "
                                   "repository, not a file; not read")
    if entry.size > repo.MAX_BYTES:
        return files.TeamFileError(f"{rel} in the team repo is {entry.size / (1 << 20):,.1f} "
                                   f"MB, more than the {repo.MAX_BYTES >> 20} MB a team file "
                                   "may hold; not read")
    return None


class _Sync:
    def __init__(self, library: SyncedLibrary, progress: Progress | None) -> None:
        self.lib = library
        self.root = library.root
        self.dir = library.root / repo.TEAM_DIR
        self.state = repo.State.load(library.root)
        self.say = progress or (lambda message: None)
        self.report = SyncReport()
        self.git: Git
        self.url = ""
        self.written = False  # a team file was written by this sync
        self.dropped = False  # the repo lost records of ours: write them back
        self._trees: dict[str, dict[str, _Entry]] = {}
        self._head_at: str | None = None
        self._head_known = False  # _head_at is HEAD's commit (until this sync moves HEAD)
        self._blobs: dict[str, str] = {}  # blob id -> text (git's objects never change)

    # -- the steps -------------------------------------------------------------------------
    def run(self, remote: str | None, name: str | None) -> SyncReport:
        self._setup(remote, name)
        self._check_repo()
        self._stopped_import()
        for attempt in range(PUSH_TRIES):
            theirs = self._fetch()
            if attempt == 0:
                head = self._head()
                if head is None and theirs is not None:
                    self._out("checkout", "-q", "-B", "main", "origin/main")
                    self._head_known = False
                elif head is not None and theirs not in (None, head) and \
                        self._is_ancestor(head, theirs):
                    # Nothing of ours unsent: take the team's newest first, so a file that
                    # was broken at our HEAD (a sync stopped on it) and is fixed since is
                    # read as fixed, not stopped on again.
                    self._merge()
                self._catch_up()
                self._export()
            if theirs is not None and not self._is_ancestor(theirs, "HEAD"):
                self._merge()
                self._catch_up()
                if self.dropped:  # someone emptied our file or the lists: send ours again
                    self._export()
            if self._push(theirs):
                break
        else:
            raise GitError(f"the team remote {self.url} kept moving while we merged "
                           f"({PUSH_TRIES} tries); your changes are committed here, run sync "
                           "again")
        self._say_quarantined()
        return self.report

    def _setup(self, remote: str | None, name: str | None) -> None:
        state = self.state
        if name is not None:
            name = repo.check_name(name)
            if state.name and state.name != name:
                raise PaperTuiError(f"this library syncs as {state.name!r}, not {name!r}: a "
                                    "person keeps one name (use another library for another)")
        name = name or state.name
        fresh = not (self.dir / ".git").exists()
        if name is None or (fresh and remote is None):
            raise PaperTuiError("this library is not in a team yet: run `paper-tui sync "
                                "--remote URL --as NAME` once (URL: any git remote)")
        self.git = Git(self.dir, name)
        if fresh:
            self.dir.mkdir(parents=True, exist_ok=True)
            self._out("init", "-q", "-b", "main")
            # A new repo: everything is sent again.
            state.agreed, state.sources, state.unsent = None, {}, 0
        known = dict(line.split(" ", 1) for line in self.git.run(
            "config", "--get-regexp",
            rf"^(remote\.origin\.url|merge\.{repo.DRIVER}\.driver|core\.symlinks)$"
        ).out.splitlines() if " " in line)
        current = known.get("remote.origin.url")
        if remote is not None and current != remote:
            self._out("remote", "add" if current is None else "set-url", "origin", remote)
        elif current is None:
            raise PaperTuiError(f"the team repo {self.dir} has no remote 'origin': run "
                                "`paper-tui sync --remote URL` once")
        self.url = remote or current or ""
        if known.get("core.symlinks") != "false":
            # A link a team-mate commits is checked out as a small file holding its target,
            # never as a link out of the repo.
            self._out("config", "core.symlinks", "false")
        driver = f"{shlex.quote(sys.executable)} -m paper_tui merge-driver %O %A %B %P"
        if known.get(f"merge.{repo.DRIVER}.driver") != driver:
            self._out("config", f"merge.{repo.DRIVER}.name", "paper-tui field-by-field merge")
            self._out("config", f"merge.{repo.DRIVER}.driver", driver)
            self._out("config", "branch.main.remote", "origin")
            self._out("config", "branch.main.merge", "refs/heads/main")
        if state.name != name or fresh:
            state.name = name
            state.save(self.root)

    def _check_repo(self) -> None:
        """Refuse to work on a repo someone left mid-merge (or mid-rebase)."""
        git_dir = self.dir / ".git"
        unmerged = sorted({line.split("\t", 1)[-1] for line in
                           self._out("ls-files", "--unmerged").splitlines()})
        busy = [p for p in ("MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD")
                if (git_dir / p).exists()]
        if unmerged or busy:
            what = f"conflicts in {', '.join(unmerged)}" if unmerged else "an unfinished " + (
                "merge" if busy[0] == "MERGE_HEAD" else "rebase or cherry-pick")
            raise GitError(f"the team repo {self.dir} has {what}: finish it there (e.g. "
                           f"`git -C {self.dir} merge --abort`), then sync again; nothing "
                           "local changed")

    def _fetch(self) -> str | None:
        self.say("fetching")
        result = self.git.run("fetch", "--quiet", "--no-tags", "origin",
                              "+refs/heads/main:refs/remotes/origin/main",
                              timeout=NETWORK_TIMEOUT)
        if not result.ok and "couldn't find remote ref" not in result.err.lower():
            raise remote_fault(result.err, self.url, "fetch")
        return self.git.rev("refs/remotes/origin/main") if result.ok else None

    def _merge(self) -> None:
        self.say("merging")
        result = self.git.run("merge", "--no-edit", "--quiet", "origin/main")
        self._head_known = False
        if result.ok:
            return
        said = last_line(result.err or result.out)
        if "unrelated histories" in said:
            raise GitError(
                f"the team remote {self.url} holds a different history than {self.dir} (was it "
                f"re-created or overwritten?); nothing was merged. To join it afresh, move "
                f"{self.dir} aside and run `paper-tui sync --remote {self.url}`: your own "
                "work is in the library and is sent again")
        self.git.run("merge", "--abort")
        raise GitError(f"cannot merge the team's changes in {self.dir} ({said}); nothing "
                       "local changed, the repo is as before the sync")

    def _push(self, theirs: str | None) -> bool:
        """Push our commits; False when the remote moved on meanwhile (merge again)."""
        head = self._head()
        if head is None or head == theirs or (theirs and self._is_ancestor(head, theirs)):
            if self.state.unsent:
                self.report.sent, self.state.unsent = self.state.unsent, 0
                self.state.save(self.root)
            return True
        self.say("sending")
        result = self.git.run("push", "--quiet", "origin", "HEAD:refs/heads/main",
                              timeout=NETWORK_TIMEOUT)
        if not result.ok:
            low = result.err.lower()
            if "fetch first" in low or "non-fast-forward" in low or "[rejected]" in low:
                return False
            self.report.unsent = self.state.unsent
            raise remote_fault(result.err, self.url, "push")
        self.report.sent, self.state.unsent = self.state.unsent, 0
        self.state.save(self.root)
        return True

    # -- taking in what the repo holds -----------------------------------------------------
    def _catch_up(self) -> None:
        head = self._head()
        base = self.state.agreed
        if head is None or head == base:
            return
        if base is not None and self.git.rev(base) is None:
            base = None  # a commit the repo no longer has: compare with nothing
        self.say("taking in")
        me = self.state.name or ""
        own = repo.person_file(me)
        people = self._changed(base, head, repo.PEOPLE)
        self._prefetch((base, head), [own, repo.LISTS, repo.CITEKEYS, repo.ASSIGNMENTS,
                                      *(p for p in people if p != own and _member(p))])
        stores = self.lib.annotations
        mine = self._take_in(stores.store.path, stores.store.schema, repo.PEOPLE_SCHEMA, own,
                             base, head)
        if mine:
            self.report.papers_from[f"{me} (another machine)"] = len(mine)
        lists = self._take_in(stores.lists.store.path, stores.lists.store.schema,
                              repo.LISTS_SCHEMA, repo.LISTS, base, head)
        if lists:
            who = ", ".join(self._authors(base, head, repo.LISTS)) or f"{me} (another machine)"
            self.report.lists_from[who] = self.report.lists_from.get(who, 0) + len(lists)
        citekeys = self.lib.citekeys.store
        self._take_in(citekeys.path, citekeys.schema, repo.CITEKEYS_SCHEMA, repo.CITEKEYS,
                      base, head)
        for path in people:
            if path == own:
                continue
            member = _member(path)
            if member is None:
                if path in self._tree(head):
                    self.report.notes.append(
                        f"{path} in the team repo is not a member's file (people/NAME.yaml, "
                        "NAME of lower-case letters, digits, '.', '-', '_'); ignored")
                continue
            try:
                n = len(self._diff_keys(repo.PEOPLE_SCHEMA, path, base, head)[2])
            except PaperTuiError as exc:  # theirs to fix; it takes nothing from anyone else
                self.report.notes.append(f"{exc}; {member}'s triage is not shown until fixed")
                continue
            self.report.papers_from[member] = self.report.papers_from.get(member, 0) + n
        self._assigned_to_me(base, head, me)
        self._import_sources(self._changed(base, head, repo.SOURCES), head)
        self._take_in_reviews()
        self.state.agreed = head
        self.state.save(self.root)

    def _assigned_to_me(self, base: str | None, head: str, me: str) -> None:
        """Count the papers the repo's new assignments give this member (a member who
        never synced before hears of their share at their first sync)."""
        try:
            old, new, keys = self._diff_keys(repo.ASSIGNMENTS_SCHEMA, repo.ASSIGNMENTS, base,
                                             head)
        except PaperTuiError as exc:  # the team's to fix; the rest of the sync goes on
            self.report.notes.append(f"{exc}; the split is not shown until fixed")
            return
        self.report.assigned_to_you += sum(
            1 for key in keys if new[key].get("member") == me
            and (old.get(key) or {}).get("member") != me)

    def _tree(self, commit: str) -> dict[str, _Entry]:
        """Every file of a commit (path -> entry), listed once per sync."""
        if commit not in self._trees:
            out = self._out("ls-tree", "-r", "-l", "-z", "--full-tree", commit)
            tree = {}
            for item in out.split("\0"):
                meta, _, path = item.partition("\t")
                parts = meta.split()
                if len(parts) == 4:
                    size = int(parts[3]) if parts[3].isdigit() else 0
                    tree[path] = _Entry(parts[0], parts[2], size)
            self._trees[commit] = tree
        return self._trees[commit]

    def _read_blob(self, commit: str | None, rel: str) -> str | None:
        """A team file's text at a commit (None: not there), read from git's objects (so
        never through a link); :class:`~.files.TeamFileError` when it is not a regular file
        or holds more than :data:`~.repo.MAX_BYTES`."""
        if commit is None:
            return None
        entry = self._tree(commit).get(rel)
        if entry is None:
            return None
        refused = _refusal(rel, entry)
        if refused is not None:
            raise refused
        self._load([entry.blob])
        return self._blobs[entry.blob]

    def _load(self, blobs: list[str]) -> None:
        """Read the blobs not read yet, in one git run. A team file is UTF-8 text (a byte
        that is not reads as U+FFFD), its line ends read as text mode reads them."""
        todo = [blob for blob in dict.fromkeys(blobs) if blob not in self._blobs]
        if not todo:
            return
        found = self.git.objects(todo)
        for blob in todo:
            if blob not in found:
                raise self.git.failed("cat-file", f"object {blob} is missing")
            text = found[blob].decode("utf-8", "replace")
            self._blobs[blob] = text.replace("\r\n", "\n").replace("\r", "\n")

    def _prefetch(self, commits: tuple[str | None, ...], rels: list[str]) -> None:
        """Read what a catch-up compares (these files at these commits) in one git run,
        not one ``cat-file`` each."""
        blobs = []
        for commit in commits:
            tree = self._tree(commit) if commit is not None else {}
            for rel in rels:
                entry = tree.get(rel)
                if entry is not None and _refusal(rel, entry) is None:
                    blobs.append(entry.blob)
        self._load(blobs)

    def _diff_keys(self, schema: Schema, rel: str, base: str | None, head: str
                   ) -> tuple[dict[str, Record], dict[str, Record], list[str]]:
        """A team file's records at ``base`` and ``head``, and the keys whose fields
        ``head`` changes. A record ``head`` lacks is no change: it takes nothing away. A
        ``base`` that cannot be read (broken then, fixed since) is compared as nothing, as
        a first sync compares; only a ``head`` that cannot be read is an error."""
        path = self.dir / rel
        new = repo.read(self._read_blob(head, rel), path, schema).records
        try:
            old = repo.read(self._read_blob(base, rel), path, schema).records
        except PaperTuiError:
            old = {}
        keys = sorted(k for k, record in new.items() if _fields(old.get(k)) != _fields(record))
        return old, new, keys

    def _take_in(self, local_path: Path, local_schema: Schema, team_schema: Schema, rel: str,
                 base: str | None, head: str) -> list[str]:
        """Bring the repo's changes to one file (base -> head) into the library's store,
        merged with what changed locally since; returns the keys that changed."""
        try:
            old, new, keys = self._diff_keys(team_schema, rel, base, head)
        except files.TeamFileError as exc:
            raise StoreError(str(exc)) from None
        self.dropped = self.dropped or not old.keys() <= new.keys()
        if not keys:
            return []
        store = YamlStore(local_path, local_schema)
        store.load()
        if store.read_only_reason:
            raise StoreError(store.read_only_reason)
        for key in keys:
            current = store.get(key)
            merged = merge_one(local_schema, old.get(key), current, new[key])
            if merged != current:
                at = stamp_time((merged or {}).get("updated")) or time.time()
                store.put(key, merged, at)
        store.save()
        return keys

    def _stopped_import(self) -> None:
        """A paper list whose import the last sync never finished (it was killed, or ran
        out of memory) is quarantined: this sync and the next go on without it."""
        for name, blob in self.state.importing.items():
            self.state.quarantined[name] = repo.Quarantined(
                blob, "the last sync stopped while importing it")
        if self.state.importing:
            self.state.importing = {}
            self.state.save(self.root)

    def _import_sources(self, changed: list[str], head: str) -> None:
        from paper_tui.holdings.sources import source_id

        tree = self._tree(head)
        manifest = self.lib.sources.manifest
        for rel in changed:
            entry = tree.get(rel)
            name = rel.removeprefix(f"{repo.SOURCES}/")
            if entry is None:  # it left the repo
                self.state.quarantined.pop(name, None)
                continue
            if "/" in name or name.startswith("."):
                self.report.notes.append(f"{rel} in the team repo is not a paper list of the "
                                         "team (those are files directly in sources/); "
                                         "ignored")
                continue
            if not entry.regular or not files.is_regular(self.dir, rel):
                self.report.notes.append(f"{rel} in the team repo is a symbolic link or "
                                         "another repository, not a file; not imported (a "
                                         "team repo is never followed out of it)")
                continue
            stuck = self.state.quarantined.get(name)
            if stuck is not None:
                if stuck.blob == entry.blob:
                    continue  # said once per sync, by _say_quarantined
                del self.state.quarantined[name]
            path = self.dir / rel
            digest = checksum(path)
            info = manifest.get(source_id(path))
            if info is None or info.checksum != digest:
                why = self._import(path, name, entry.blob)
                if why is not None:
                    self.state.quarantined[name] = repo.Quarantined(entry.blob, why)
                    self.report.notes.append(f"{rel} from the team did not import: {why}; it "
                                             "is skipped until it changes")
                    continue
                manifest = self.lib.sources.manifest
            self.state.sources[name] = digest

    def _import(self, path: Path, name: str, blob: str) -> str | None:
        """Import a paper list of the team's; the reason it failed, None when it did not.
        Whatever happens inside, the sync goes on (the list is the team-mate's data)."""
        self.state.importing = {name: blob}
        self.state.save(self.root)
        self.say(f"importing {name}")
        try:
            report = self.lib.import_paths([path])
        except PaperTuiError as exc:
            return str(exc)
        except Exception as exc:  # a list that breaks the importer must not stop the sync
            return f"{type(exc).__name__}: {exc}"[:300]
        finally:
            self.state.importing = {}
            self.state.save(self.root)
        if report.errors and not report.sources:
            return "; ".join(str(error) for error in report.errors)
        for error in report.errors:
            self.report.notes.append(str(error))
        self.report.sources_in.append((path.name, report.added))
        return None

    def _review_files(self) -> Iterator[tuple[str, str, Path]]:
        """``(source id, repo path, library file)`` of each reviews and ratings file a
        shared list may have."""
        self.lib.sources.reload()
        for sid in team_reviews.shared_sources(self.lib.sources, self.state.sources):
            for suffix in team_reviews.SUFFIXES:
                yield (sid, team_reviews.team_path(sid, suffix),
                       team_reviews.local_file(self.lib.sources, sid, suffix))

    def _team_bytes(self, rel: str) -> bytes | None:
        """A team file's bytes in the work tree (None: absent, or refused, said once)."""
        try:
            return files.read_bytes(self.dir, rel, repo.MAX_BYTES)
        except files.TeamFileError as exc:
            if str(exc) not in self.report.notes:
                self.report.notes.append(str(exc))
            return None

    def _take_in_reviews(self) -> None:
        """Each shared list's reviews and rating history as the repo has them, merged into
        the library's (the newer fetch's reviews; both histories' points)."""
        for sid, rel, path in self._review_files():
            theirs = self._team_bytes(rel)
            if theirs is None or team_reviews.digest(theirs) == self.state.sources.get(rel):
                continue
            with self._library_lock():
                ours = team_reviews.read_local(path)
                out = team_reviews.merged(rel, ours, theirs)
                if out is None or out == ours:
                    continue
                team_reviews.write_local(path, out)
            if sid not in self.report.reviews_in:
                self.report.reviews_in.append(sid)

    def _export_reviews(self) -> list[str]:
        """Send each shared list's reviews and rating history (merged with the repo's
        when both changed); the sources whose files were written."""
        sent: list[str] = []
        for sid, rel, path in self._review_files():
            theirs = self._team_bytes(rel)
            agreed = self.state.sources.get(rel)
            with self._library_lock():
                ours = team_reviews.read_local(path)
                if (ours is None and theirs is None) or (
                        team_reviews.digest(ours) == agreed == team_reviews.digest(theirs)):
                    continue
                out = team_reviews.merged(rel, ours, theirs)
                if out is None:
                    continue
                if out != ours:
                    team_reviews.write_local(path, out)
            if out != theirs:
                files.write_bytes(self.dir, rel, out)
                if sid not in sent:
                    sent.append(sid)
            self.state.sources[rel] = team_reviews.digest(out)
        return sent

    def _library_lock(self) -> contextlib.AbstractContextManager[None]:
        """The library's lock, as an import holds it while it records ratings."""
        return _held(self.root / ".library.lock", f"{self.root} has been busy importing "
                     f"for {LOCK_TIMEOUT:.0f} s; sync again later")

    def _say_quarantined(self) -> None:
        """One line for each paper list still quarantined; one that left the repo is
        forgotten."""
        if not self.state.quarantined:
            return
        head = self._head()
        tree = self._tree(head) if head is not None else {}
        for name, stuck in sorted(self.state.quarantined.items()):
            entry = tree.get(f"{repo.SOURCES}/{name}")
            if entry is None or entry.blob != stuck.blob:
                del self.state.quarantined[name]
            elif not any(note.startswith(f"{repo.SOURCES}/{name} ")
                         for note in self.report.notes):
                self.report.notes.append(
                    f"{repo.SOURCES}/{name} from the team is skipped until it changes: it did "
                    f"not import ({stuck.why}); `paper-tui import "
                    f"{self.dir / repo.SOURCES / name}` tries it by hand")
        self.state.save(self.root)

    # -- sending this library's changes ----------------------------------------------------
    def _export(self) -> None:
        self.say("committing")
        self.dropped = False
        stores = self.lib.annotations
        stores.flush()
        me = self.state.name or ""
        own = repo.person_file(me)
        papers = self._write(own, repo.PEOPLE_SCHEMA, stores.store.snapshot(), titled=True)
        lists = self._write(repo.LISTS, repo.LISTS_SCHEMA, stores.lists.store.snapshot(),
                            titled=False)
        keys = self._write(repo.CITEKEYS, repo.CITEKEYS_SCHEMA,
                           self.lib.citekeys.store.snapshot(), titled=False)
        shared = self._export_sources()
        reviewed = self._export_reviews()
        assigned = self._assignments_edited()
        written = self.written or bool(shared) or bool(reviewed) or assigned
        if self._read_team_file(".gitattributes") != repo.ATTRIBUTES:
            files.write_text(self.dir, ".gitattributes", repo.ATTRIBUTES)
            written = True
        if written:  # else only what a stopped sync may have staged is left to commit
            edited = [repo.ASSIGNMENTS] if assigned else []
            ours = [".gitattributes", own, repo.LISTS, repo.CITEKEYS, *edited,
                    *(f"{repo.SOURCES}/{name}" for name in shared),
                    *(team_reviews.team_path(sid, suffix) for sid in reviewed
                      for suffix in team_reviews.SUFFIXES)]
            self._as_files(ours)
            self._out("add", "--", *ours[:4], *edited,
                      *(folder for folder in (repo.SOURCES, repo.REVIEWS)
                        if (self.dir / folder).exists()))
        if self.git.run("diff", "--cached", "--quiet").ok:
            return
        message = _message(me, Changes(papers, lists, len(keys), shared, assigned,
                                       reviewed)) or \
            f"{me}: updated " + ", ".join(self._out("diff", "--cached", "--name-only", "-z"
                                                    ).strip("\0").split("\0"))
        self._out("commit", "-q", "--no-verify", "-m", message)
        self._head_known = False
        self.state.unsent += len(papers) + len(lists) + len(shared) + int(assigned) \
            + len(reviewed)
        self.state.agreed = self._head()
        self.state.save(self.root)

    def _assignments_edited(self) -> bool:
        """Whether ``assignments.yaml`` was changed in the work tree by hand since the last
        commit (``team split`` commits its own changes); a change that does not read is
        not sent, and said."""
        if not self._out("status", "--porcelain", "-z", "--", repo.ASSIGNMENTS):
            return False
        text = self._read_team_file(repo.ASSIGNMENTS)
        if text is None:
            return False
        try:
            assignments.parse(text, self.dir / repo.ASSIGNMENTS)
        except PaperTuiError as exc:
            self.report.notes.append(f"{exc}; your edit of it is not sent until fixed")
            return False
        return True

    def _as_files(self, paths: list[str]) -> None:
        """Git keeps a path's recorded type on ``add`` when links are checked out as files
        (``core.symlinks=false``): a link a team-mate committed where this sync writes a
        file leaves the index first, so the file is sent as a file."""
        out = self._out("ls-files", "--stage", "-z", "--", *paths)
        links = [entry.split("\t", 1)[1] for entry in out.split("\0")
                 if entry.startswith(("120000 ", "160000 "))]
        if links:
            self._out("rm", "--cached", "-q", "--", *links)

    def _read_team_file(self, rel: str) -> str | None:
        """A file of the work tree as this sync writes it; None when absent, or not a
        regular file (a link, a folder: it is replaced), or not UTF-8 text."""
        try:
            data = files.read_bytes(self.dir, rel, repo.MAX_BYTES)
            return None if data is None else data.decode("utf-8")
        except (files.TeamFileError, UnicodeDecodeError):
            return None

    def _write(self, rel: str, schema: Schema, local: dict[str, Record], titled: bool
               ) -> list[Change]:
        """Write the library's records to a team file; returns (key, before, after) per
        change.

        A paper this library has no record of any more (the reader cleared it) stays in a
        people file as its time stamp alone: the member's other machines clear it too,
        while a paper missing from the file tells them nothing."""
        path = self.dir / rel
        text = self._read_team_file(rel)
        team = repo.read(text, path, schema)
        # A record whose fields are the team file's is left as it is there: a time stamp
        # alone (re-stamped elsewhere with the same values) is no change to send back.
        changed = sorted(k for k in local.keys() | team.records.keys()
                         if _fields(local.get(k)) != _fields(team.records.get(k)))
        if not changed and text is not None:
            return []
        out = {k: v if k in changed else team.records[k] for k, v in local.items()}
        if schema.implicit:
            cleared = {"updated": stamp(time.time())}
            out.update({k: cleared for k in changed if k not in local})
        titles = team.titles
        if titled:
            titles = {**titles, **self._titles([k for k in changed if k in local])}
        files.write_text(self.dir, rel, repo.write(schema, out, titles, reuse=team))
        self.written = True
        return [(k, team.records.get(k), local.get(k)) for k in changed]

    def _titles(self, ids: list[str]) -> dict[str, str]:
        out = {}
        for pid in ids:
            try:
                paper = self.lib.index.get(pid)
            except Exception:  # the index is derived: a title is a nicety, never a fault
                paper = None
            if paper is not None:
                out[pid] = paper.title or paper.display_title
        return out

    def _export_sources(self) -> list[str]:
        """Copy paper lists imported here (as the files imported) into ``sources/``."""
        self.lib.sources.reload()
        bundled = paths.bundled_data_dir().resolve()
        team_sources = (self.dir / repo.SOURCES).resolve()
        shared = []
        for info in self.lib.sources.manifest.values():
            original = Path(info.path)
            name = original.name
            if (self.state.sources.get(name) == info.checksum
                    or original.parent in (bundled, team_sources)):
                continue
            if not original.is_file() or checksum(original) != info.checksum:
                self.report.notes.append(f"{name} is not shared: the file imported "
                                         f"({original}) is gone or changed; import it again")
                continue
            files.copy_in(self.dir, f"{repo.SOURCES}/{name}", original)
            self.state.sources[name] = info.checksum
            shared.append(name)
        return shared

    # -- git helpers -----------------------------------------------------------------------
    def _out(self, *args: str) -> str:
        return self.git.out(*args)

    def _head(self) -> str | None:
        """The commit HEAD is at (None: no commit yet), asked of git once, then again only
        after this sync moved it (checkout, merge, commit): the team lock keeps every other
        sync and split out meanwhile."""
        if not self._head_known:
            self._head_at, self._head_known = self.git.rev("HEAD"), True
        return self._head_at

    def _is_ancestor(self, a: str, b: str) -> bool:
        return self.git.run("merge-base", "--is-ancestor", a, b).ok

    def _changed(self, base: str | None, head: str, under: str) -> list[str]:
        """The files under ``under`` that differ between the two commits (added, removed or
        changed), as ``git diff --name-only --no-renames`` lists them: compared in the trees
        this sync lists anyway, not by another git run."""
        old = self._tree(base) if base is not None else {}
        new = self._tree(head)
        return sorted(path for path in old.keys() | new.keys()
                      if path.startswith(f"{under}/") and old.get(path) != new.get(path))

    def _authors(self, base: str | None, head: str, rel: str) -> list[str]:
        span = head if base is None else f"{base}..{head}"
        names = self._out("log", "--no-merges", "--format=%an", span, "--", rel).split()
        return [n for n in dict.fromkeys(names)
                if n != self.state.name and repo.is_plain_name(n)]


def _member(path: str) -> str | None:
    """The member whose file ``path`` (in the repo) is; None when it is no member's."""
    folder, _, file = path.partition("/")
    name = file.removesuffix(".yaml")
    if folder != repo.PEOPLE or file == name or not repo.is_plain_name(name):
        return None
    return name


def _fields(record: Record | None) -> Record:
    """A record without its time stamp (an absent record: no fields)."""
    return {k: v for k, v in (record or {}).items() if k != "updated"}


Change = tuple[str, Record | None, Record | None]
"""A record's key, the record before and after (None: absent)."""


@dataclass(frozen=True)
class Changes:
    """What a sync's commit sends: papers' and lists' changes, citation keys given out,
    paper lists shared, whether the assignments were edited."""

    papers: list[Change]
    lists: list[Change]
    keys: int = 0
    shared: list[str] = field(default_factory=list)
    assigned: bool = False
    reviewed: list[str] = field(default_factory=list)
    """Sources whose reviews or rating history were sent."""


_LISTS_NAMED = 3
"""The most reading lists a commit message names (more: counted)."""


def _message(me: str, changes: Changes) -> str:
    """``alice: 3 to-read, 1 starred, 2 tagged, 1 note, list "survey" +4 -1, 2 citation
    keys, shared icml.bib`` ("" when nothing it knows of changed)."""
    counts: dict[str, int] = {}

    def bump(what: str) -> None:
        counts[what] = counts.get(what, 0) + 1

    for _, before, after in changes.papers:
        before, after = before or {}, after or {}
        if before.get("status", "new") != after.get("status", "new"):
            bump(after.get("status", "new"))
        if bool(before.get("starred")) != bool(after.get("starred")):
            bump("starred" if after.get("starred") else "unstarred")
        if tuple(before.get("tags", ())) != tuple(after.get("tags", ())):
            bump("tagged")
        if before.get("note", "") != after.get("note", ""):
            bump("note")
    order = ("to-read", "read", "skipped", "new", "starred", "unstarred", "tagged", "note")
    parts = [f"{counts[what]} {what}" for what in order if what in counts]
    if len(changes.lists) > _LISTS_NAMED:
        parts.append(_count(len(changes.lists), "list"))
    else:
        parts += [_list_change(*change) for change in changes.lists]
    if changes.keys:
        parts.append(_count(changes.keys, "citation key"))
    parts += [f"shared {name}" for name in changes.shared]
    parts += [f"the reviews of {sid}" for sid in changes.reviewed]
    parts += ["edited the assignments"] if changes.assigned else []
    return f"{me}: {', '.join(parts)}" if parts else ""


def _list_change(name: str, before: Record | None, after: Record | None) -> str:
    """``list "survey" +4 -1``, ``new list "later" +2``, ``removed list "old"``."""
    shown = json.dumps(inert_line(name), ensure_ascii=False)
    if after is None:
        return f"removed list {shown}"
    old, new = tuple((before or {}).get("papers", ())), tuple(after.get("papers", ()))
    added, removed = len(set(new) - set(old)), len(set(old) - set(new))
    moves = " ".join(f"{sign}{n:,}" for sign, n in (("+", added), ("-", removed)) if n)
    if before is None:
        return f"new list {shown}" + (f" {moves}" if moves else "")
    if moves:
        return f"list {shown} {moves}"
    return f"list {shown} " + ("reordered" if old != new else "described")
