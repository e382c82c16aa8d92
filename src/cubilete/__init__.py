"""cubilete: Penta, Generala and 5000, exact rules and optimal players."""

__version__ = "0.6.0"
