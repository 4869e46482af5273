"""The `routes` command line: one module per group of commands (``common`` holds what they
share). Heavy libraries are imported inside the commands that need them."""

from __future__ import annotations

# Importing a module registers its commands, in the order ``--help`` lists them.
from routes.cli import maps, network, places, review, scenario, stories  # noqa: F401
from routes.cli.common import app, main

__all__ = ["app", "main"]
