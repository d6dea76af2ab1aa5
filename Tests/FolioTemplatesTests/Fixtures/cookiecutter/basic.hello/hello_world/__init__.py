__version__ = "1"
NAME = "Hello World"
