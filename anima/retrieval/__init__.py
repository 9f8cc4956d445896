"""Recall: full-text (FTS5 BM25) and vector search over the soul, fused by Reciprocal Rank Fusion."""
