"""``python -m cardcore`` runs the CLI."""

from cardcore.cli import main

main()
