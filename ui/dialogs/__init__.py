"""Dialogs: first run, unlock, passphrase, settings, export and import."""
