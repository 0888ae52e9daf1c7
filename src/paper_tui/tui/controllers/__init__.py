"""What the keys do, apart from the screens they are pressed on: triage, editing, search.

Each controller works through a small :class:`typing.Protocol` (``tui/host.py``, or its
own module's), never the app class, so any screen that provides it can host the keys.
"""
