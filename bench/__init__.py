"""Benchmarks. Each prints a readable table, then one JSON line: {"bench": NAME, ...}."""
