"""Migration 12: which way a message bears on a behavioural rule, so its support counts conversations."""

from anima.knowledge.rules import Rules
from anima.store import migrations
from tests.conftest import PASSPHRASE
from tests.store.records import NOW
from tests.store.test_soul import at_schema


def test_a_soul_from_before_keeps_its_rules_evidence_and_counts_new_evidence_by_conversation(anima_home):
    home, old = at_schema(anima_home, migrations.MIGRATIONS.index(migrations.m012_evidence_stance))
    with old:
        said = [
            old.add("message", "user", session="s", role="user", content=f"Bottom line first! ({n})", created_at=NOW)
            for n in range(3)
        ]
        rule = old.add("rule", "ai", pattern="Give the bottom line first", confidence=0.5, derived_at=NOW, support=1)
        old.cite("rule", rule, "message", said[0])
    with home.unlock(PASSPHRASE) as soul:
        assert soul.schema_version() == migrations.SCHEMA_VERSION
        assert soul.query("SELECT stance FROM evidence") == [{"stance": None}]  # its direction was not kept
        rules = Rules(soul)
        rules.learn("Give the bottom line first", said[1], rule_id=rule)
        rules.learn("Give the bottom line first", said[2], rule_id=rule)
        # The old citation says nothing of which way it went: the first new one counts, the next (same talk) not.
        assert rules.all()[0].support == 2
        assert sorted(i for _, i in soul.citations("rule", rule)) == said
