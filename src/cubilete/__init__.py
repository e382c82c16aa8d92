"""cubilete: Penta, Generala, 5000, Yahtzee, Yatzy and Kniffel, exact rules and optimal players."""

__version__ = "0.6.0"
