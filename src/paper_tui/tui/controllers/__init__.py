"""What the keys do, apart from the screens they are pressed on: triage, editing, citing,
reading lists, search, sync, watches.

Each controller works through a small :class:`typing.Protocol` (``tui/host.py``, or its
own module's), never the app class, so any screen that provides it can host the keys. A
controller never imports a screen: the dialogs it opens come from its screen
(:class:`~paper_tui.tui.host.Dialogs`).
"""
