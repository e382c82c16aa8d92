"""Analysis of games by the solvers and players, for the apps: what they show about play.

`review` grades every decision of a finished game against the optimal player's, `outlook`
gives each seat's chances (or expected final total) at a moment of a game (both answer with
`findings`' values), `matches` plays many games between computer players and sums them up, with
`confidence`'s intervals. Each game family's review walk (on `walk`) and outlook live in one
module (`sheet`, `five_thousand`), which `families.ANALYSIS_FAMILIES` names by the engine's
family id.
"""
