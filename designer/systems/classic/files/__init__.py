"""The classic Rallyman files and the models read from them: zone boxes (:mod:`.zones`), stages and rallies
(:mod:`.stage`), what a rally hands from one stage to the next (:mod:`.rally`), the route's two written forms
(:mod:`.notation`), the ruleset (:mod:`.rules`) and the pydantic schemas every file is checked against before
use (:mod:`.schema`).

May import :mod:`designer.core` and its own modules only (the stage reader asks :mod:`.zones` whether a file
is a box). Nothing here is imported at package import time.
"""
