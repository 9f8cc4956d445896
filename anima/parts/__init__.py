"""Dynamic Parts (seed 000): the schema, the stored parts and their index, bids, packs, affect, predictions."""
