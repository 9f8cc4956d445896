"""Trust: the checks that read a text before it may shape the companion (orders, voices, secrets, what the
checks can read), shared by the gate, the parts, the cards and reflection."""
