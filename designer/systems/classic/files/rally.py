"""What one stage of a classic rally hands to the next, and what the single-car analysis leaves out.

- **Damage** (ART.8, ART.13, ART.14): black dice lost in a stage stay lost in the next one unless an assistance
  follows the stage (``assistance: false``). The analysis of that next stage weighs each number of dice carried
  in by its chance at the end of the stage before.
- **Soft tyres** (ART.15.3, ART.24.3): tyres are changed only at an assistance; soft tyres kept into the next
  stage make it a third sector (S3), or a second one (S2) when the stage before had a single section.
- **Penalties** (ART.22): bid at the time control after each stage, in 5-second tokens; the course sheet has a
  column for them (a stage may also carry ``penalty_seconds`` decided in advance).

>>> carried_sector(3), carried_sector(1)
('S3', 'S2')
"""
from __future__ import annotations

# Rules that change a stage for one car and are not in its figures, and rules of several cars at the table.
NOT_PRICED = ("a dirty cut slowing the same car when it passes the corner again (ART.9.3; the cars behind pay "
              "it in the table of several cars)",
              "punctures and the spare wheel carried to the next stage without an assistance (ART.10, ART.14)",
              "a gas die lost to a puncture in the middle of a Big Attack (ART.5 remark 2)",
              "a car leaving the road towards the cut restarting in it with a cut card (ART.7.4)",
              "the SISU card's worth for the later stages of a rally (ART.7.5: held here only with sisu: true)")
SEVERAL_CARS = ("overtaking and blocking (ART.12)", "dirty cuts for the cars behind (ART.9.3)",
                "cut cleaning (ART.21)", "the leader's orange dice changing hands (ART.20)",
                "time-control penalty bids (ART.22)")
MAX_CARRIED = 4          # one black die is always kept (decided, as in the expected-time solver)


def carried_sector(sections_before: int) -> str:
    """The sector of a stage raced on soft tyres kept from the stage before (ART.24.3)."""
    return "S2" if sections_before == 1 else "S3"


def apply_soft_sector(g, stage) -> None:
    """Soft tyres kept from the stage before: the whole stage counts as that sector (ART.24.3, decided)."""
    if stage.tyres == "soft" and stage.soft_sector:
        for n in g:
            g.nodes[n]["sector"] = stage.soft_sector


def link_stages(stages: list) -> None:
    """Mark each stage with what it inherits from the one before when no assistance lies between them:
    ``carried_from`` (the stage before), its tyres (``tyres``; those the stage asked for in
    ``tyre_change_refused``) and, for soft tyres kept, ``soft_sector`` (ART.24.3)."""
    for stage in stages:                      # linked again after an edit: each stage's own tyres back first
        if getattr(stage, "tyre_change_refused", None):
            stage.tyres = stage.tyre_change_refused
        stage.carried_from = stage.tyre_change_refused = None
    for before, stage in zip(stages, stages[1:]):
        if before.assistance:
            continue
        stage.carried_from = before
        if stage.tyres != before.tyres:
            # ART.15.3: "S'il n'y a pas d'assistance avant le départ de l'ES, les pilotes conservent les pneus de
            # la spéciale précédente": the stage is raced on them; the tyres it asked for are kept for the note
            stage.tyre_change_refused, stage.tyres = stage.tyres, before.tyres
        if before.tyres == "soft" and stage.soft_sector is None:
            stage.soft_sector = carried_sector(len(before.route))


def finish_damage(solution, stats) -> dict[int, float]:
    """The chance of each number of black dice lost when the car crosses the finish, under the best policy."""
    out: dict[int, float] = {}
    for (state, bank), occ in stats.occupancy.items():
        if state[0] == "finish":
            continue
        for o in solution.outcomes(state, bank):
            if o.state[0] == "finish":
                d = min(state[2] + (o.info or 0), MAX_CARRIED)
                out[d] = out.get(d, 0.0) + occ * o.p
    total = sum(out.values()) or 1.0
    return {d: p / total for d, p in sorted(out.items())}
