"""The self: its sections (self-model), identity under governance, feelings, working memory, growth, learned
rules, the sovereignty measures, and the one gate in front of what shapes it."""
