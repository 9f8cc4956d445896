"""What the companion believes: self-model, parts, memories, episodes, rules, signals, world cards, predictions."""
