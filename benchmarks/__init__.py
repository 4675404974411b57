"""Benchmarks (not installed): python -m benchmarks.perf."""
