"""The desktop window (PySide6). The only place Qt is imported; everything goes through anima.Companion."""
