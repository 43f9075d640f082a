"""Benchmarks: a synthetic-corpus generator and a runner comparing sitegen with Hugo."""
