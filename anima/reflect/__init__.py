"""The reflector's room: what the companion does between turns, in the background (reflector.py): learning
about the person (reflect/human.py) and reading ahead (read_ahead.py). Quick and deep reflection join here."""

from .reflector import Reflector

__all__ = ["Reflector"]
