"""Why did you say that: what a reply's workspace recalled, with each item's scores and where it came from, and the
parts' bids it weighed (seed 000): what each part wanted, suggested and predicted, and which the Self followed."""

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout

from anima.parts.bids import span
from anima.store.kinds import KINDS
from anima.workspace.budget import TIERS

TIER_WORDS = {t.name: t.what for t in TIERS}


def describe(components: dict) -> str:
    parts = []
    if components.get("keyword"):
        parts.append(f"keyword “{components['keyword']}”")
    if components.get("bm25_rank"):
        parts.append(f"words #{components['bm25_rank']}")
    if components.get("vector_rank"):
        parts.append(f"meaning #{components['vector_rank']} (similarity {components.get('vector_sim')})")
    if components.get("from_neighbour"):
        parts.append("next to a match")
    for k in ("importance", "recency", "heat", "suppression"):
        if components.get(k) is not None:
            parts.append(f"{k} {components[k]}")
    return ", ".join(parts)


def took(tokens: dict[str, int]) -> str:
    """What a reply's prompt took, in the model's tokens, tier by tier (anima/workspace/budget.py), those it had."""
    said = " · ".join(f"{TIER_WORDS.get(name, name)} {n:,}" for name, n in tokens.items() if n)
    return f"What I read for this reply, in tokens ({sum(tokens.values()):,} in all): {said}"


class WhyDialog(QDialog):
    def __init__(
        self,
        items: list[dict],
        texts: dict,
        parent=None,
        *,
        sources: dict | None = None,
        bids: list[dict] | None = None,
        tokens: dict[str, int] | None = None,
    ):
        """`texts` and `sources` (its provenance, in words) by (item_kind, item_id); `bids`: the bids the reply
        weighed (Companion.bids); `tokens`: what each tier of its prompt took (Companion.tokens_by_tier; None for a
        reply of an earlier session)."""
        super().__init__(parent)
        self.setWindowTitle("Why this reply")
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                "What I recalled for this reply, best first, and why:"
                if items
                else "Nothing new was recalled for this reply; it drew on the conversation itself."
            )
        )
        self.tree = QTreeWidget()
        self.tree.setAccessibleName("What was recalled")
        self.tree.setHeaderLabels(["#", "what", "text", "why", "from", "score"])
        sources = sources or {}
        for it in items:
            key = (it["item_kind"], it["item_id"])
            self.tree.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        str(it["rank"]),
                        KINDS[it["item_kind"]].title,
                        texts.get(key, "(forgotten since)"),
                        describe(it["components"]),
                        sources.get(key, ""),
                        f"{it['score']:.4f}",
                    ]
                )
            )
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(2, 380)
        self.tree.setColumnWidth(3, 260)
        self.tree.setColumnWidth(4, 240)
        layout.addWidget(self.tree)
        bids = bids or []
        layout.addWidget(
            QLabel("What my parts proposed, and which I followed:" if bids else "No part bid on this reply.")
        )
        self.bids = QTreeWidget()
        self.bids.setObjectName("why-bids")
        self.bids.setAccessibleName("What the parts proposed")
        self.bids.setHeaderLabels(["part", "followed", "focus", "suggestion", "predicted", "sure", "within"])
        for b in bids:
            self.bids.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        b["part"],
                        "yes" if b["followed"] else "no",
                        b["focus"],
                        b["suggestion"],
                        b["predicted_result"],
                        b["confidence"],
                        span(b["timeframe_s"]),
                    ]
                )
            )
        for column, width in ((0, 140), (2, 200), (3, 240), (4, 240)):
            self.bids.setColumnWidth(column, width)
        self.bids.setVisible(bool(bids))
        layout.addWidget(self.bids)
        self.tokens = QLabel(took(tokens) if tokens else "")
        self.tokens.setObjectName("why-tokens")
        self.tokens.setWordWrap(True)
        self.tokens.setVisible(bool(tokens))
        layout.addWidget(self.tokens)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(1060, 520 if bids else 360)
