"""The DIRT stage under the dice: the expected time of the best policy and its check by simulation.

From the bottom up: :mod:`.plan_search` (the plans of dice a driver can lay from one turn boundary, and their
Pareto choice) and :mod:`.plans` (those plans as arrays), :mod:`.rollout` (rolling every plan of a set out at
once: one by one, secured, or a Big Attack) with :mod:`.replay` (one plan replayed die by die), :mod:`.mishaps`
(what a loss of control, a cut and damage cost), :mod:`.turn_model` (one turn boundary decided: the DIRT turn
model of the shared solver :mod:`designer.racing.mdp`), :mod:`.sweep` (many boundaries decided per numpy call,
from the finish backwards), :mod:`.player` (the policy played with random dice, for the Monte Carlo check) and
:mod:`.expected_time` (the stage's expected time as a JSON-ready result: what the analysis shows).

The compiled kernels (``_kernels.pyx``: roll-outs; ``_search.pyx`` and ``_search_plans.pyx``: the plan search;
``_dice.pxd``: what they share) are optional and give the same numbers to the last bit as the Python and numpy
code they stand in for.

Imports :mod:`designer.core`, :mod:`designer.racing`, :mod:`..board` and :mod:`..driving`; never the road book or
the files of other editors. Keep this file free of imports.
"""
