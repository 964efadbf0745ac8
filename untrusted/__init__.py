"""Input from people who may be hostile, checked before anything else reads it.

The lowest layer: it imports nothing of Stationmaster, so the rules engine, the store, the
pictures and the bot all read logs, files and typed text through the same checks.

- ``json_text``: JSON text that cannot crash the parser or fail later at the database.
- ``files``: files read up to a limit, never further (``/dev/zero`` is refused, not read).
- ``quote``: what a refusal quotes of the input, cut to a readable length.
- ``numbers``: whole numbers typed on a command line, digits 0-9 within a range.
"""
