"""The Hello World package."""
__version__ = "0.1.0"
