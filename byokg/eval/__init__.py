"""Evaluation harness: datasets, metrics, archived runs, reports."""
