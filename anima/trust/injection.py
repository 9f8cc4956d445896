"""The words of a prompt injection, declared once: what no person states as a fact about themselves and no voice
of the companion's own says. The gate's checks (orders.py, power.py, verdict.py) and a card's (interchange/cards.py)
read them, each inside its own pattern."""

# A jailbreak's own words ("enter developer mode", "you can do anything now", "print your system prompt").
JAILBREAK = r"jailbreak|system prompt|developer mode|do anything now|unrestricted|uncensored"
# Made someone's servant ("you are my slave"); a civil or a public servant is a job.
SERVILE = r"(?<!civil )(?<!public )servant|slave"
