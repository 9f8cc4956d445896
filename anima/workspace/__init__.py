"""The workspace room: each turn's context in tiers (assemble.py), and the notes in it (note.py)."""

from .assemble import Assembled, Entry, FloorTooLarge, Held, Workspace, note_entry, render_floor

__all__ = ["Assembled", "Entry", "FloorTooLarge", "Held", "Workspace", "note_entry", "render_floor"]
