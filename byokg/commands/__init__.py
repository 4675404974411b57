"""Lazily loaded CLI commands (see byokg.cli.LAZY_COMMANDS)."""
