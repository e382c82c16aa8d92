"""The rules engine: pure Python, frozen states, every rule of every game; the layers above ask it."""
