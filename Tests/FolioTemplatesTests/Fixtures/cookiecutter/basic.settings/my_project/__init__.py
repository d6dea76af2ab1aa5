__version__ = "1"
NAME = "My Project"
