"""Presentation: the evidence picture and terminal-safe text."""
