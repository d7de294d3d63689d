"""Rallye, the 12-card rally game: section cards, stage drafting, the speed plan and the reconnaissance sheet.

Modules: :mod:`rules` (timing, crossing tables, ruleset file), :mod:`deck` (the box), :mod:`stage` (stages and
rallies), :mod:`layout` (cards on the table), :mod:`draft` (the six-pile draft), :mod:`plan` (cautious and
fastest plans), :mod:`simulate` (solo runs with real hands), :mod:`validate`, :mod:`analyse`, :mod:`draw`,
:mod:`roadbook`, :mod:`generate` (stages drafted many times over, then ranked) and :mod:`system` (the contract).
"""
