"""``python -m routes``: the same as the ``routes`` command."""

from routes.cli import app

app(prog_name="routes")
