"""Trust: the one gate in front of what shapes the companion (gate.py), and the checks that read a text before it
may (verdict.py combines them: orders, voices, power, codes and links, secrets, what the checks can read, what a
text may hold), shared by the gate, the parts, the cards and reflection. It sits below the self: the gate writes
through the self model it is handed."""
