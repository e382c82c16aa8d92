"""Research code: checks of the solvers and players that the product does not run.

The exact law of the threshold policy's points (`sheet_threshold_policy`) and exact two-seat play on reduced
score-sheet games (`sheet_two_player`). Tests and benchmarks use them to check the solvers
and measure the players; no module of cubilete imports this package (the import-linter
layers contract keeps it so).
"""
