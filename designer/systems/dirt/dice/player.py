"""Playing the DIRT expected-time policy with dice, for the Monte Carlo check (:mod:`designer.racing.simulate`):
every die rolled on its own, the card's back, damage and cut tokens drawn at random; the stopping, securing
and SISU rules are the solver's (:mod:`.turn_model`)."""
from __future__ import annotations

from designer.racing.mdp import Outcome
from designer.systems.dirt.dice.plans import secure_cost
from designer.systems.dirt.dice.relaid import laid_point
from designer.systems.dirt.dice.replay import failure_point, rescued
from designer.systems.dirt.dice.turn_model import Decision, DirtModel


def pick(rng, outs):
    """One of ``outs`` (each a tuple whose first item is its chance) drawn with one uniform draw of ``rng``."""
    r = rng.random()
    acc = 0.0
    for o in outs:
        acc += o[0]
        if r < acc:
            return o
    return outs[-1]


class DicePlayer:
    """Plays a :class:`DirtModel` decision with dice: every die rolled on its own, the card's back, the damage
    and cut tokens drawn at random; the stopping and securing rule is the solver's."""

    def __init__(self, model: DirtModel):
        self.model = model
        self._single: dict = {}
        self._choices: dict = {}
        faces = model.rules.die_faces
        self.faces = faces
        self.hazard_faces = dict(model.rules.hazard_faces)
        # (cell, gear) of a loss of control on the die that crossed the finish line in the turn just played, else
        # None: it only finishes the stage, but in a rally its card's back is drawn for the next (p. 20)
        self.finish_loss: tuple | None = None

    def _hazards(self, rng, dice) -> int:
        """Roll each die: a hazard with chance hazard faces / faces (one uniform draw per die)."""
        hf, faces = self.hazard_faces, self.faces
        return sum(1 for d in dice if rng.random() * faces < hf[d])

    def _choice(self, key, hit, i, h, k, tok) -> str:
        ck = (key, i, h, k, tok)
        act = self._choices.get(ck)
        if act is None:
            act = self._choices[ck] = hit[3].choice(i, h, k, tok)
        return act

    def play(self, state, t, decision: Decision, rng, value) -> Outcome:
        model = self.model
        self.finish_loss = None
        cell, gear, damage = state
        if decision.mode == "spare":
            return model.outcomes(state, t, decision, value)[0]
        key = (state, decision)
        hit = self._single.get(key)
        if hit is None:
            hit = self._single[key] = model.single(state, decision, value)
        ps1, stop, loss, _replay = hit
        steps = ps1.steps[0]
        n = int(ps1.length[0])

        def done(outs, bank, credit=0.0, info=None):
            q, sec, nxt, lost = pick(rng, outs)
            return Outcome(1.0, sec - credit, nxt, bank, lost, info)

        if decision.mode == "attack":
            total = t + int(ps1.gain[0])
            bank, credit = min(total, model.T1 - 1), max(0, total - (model.T1 - 1))
            first = None
            h = 0
            shown = {"mask": 0, "gas": 0, "brake": 0, "leader": 0}     # how the dice fell, die by die
            for j, (dice, _path, _g, events) in enumerate(steps, start=1):
                counted = list(dice)
                if "canon" in events:
                    if self._hazards(rng, counted[:1]):        # p. 23: the turn ends one cell on, gear 2
                        return done(model.stop_outcomes(*model._point(ps1, 1), damage), bank, credit, "canon")
                    counted = counted[1:]
                elif "long-jump" in events:
                    hit = self._hazards(rng, counted[:1])
                    _note(shown, counted[0], hit)
                    if hit and first is None:
                        first = j
                    counted = counted[1:]
                for d in counted:
                    hit = self._hazards(rng, [d])
                    _note(shown, d, hit)
                    h += hit
                if h >= model.limit and first is None:
                    first = j
            if first is None:
                return done(model.stop_outcomes(*model._point(ps1, n), damage), bank, credit, "attack")
            laid = None
            if model.achievable:          # the dice laid again where they can lose control at least cost
                outcome = (shown["mask"], shown["gas"], shown["brake"], shown["leader"])
                laid = laid_point(model, cell, gear, steps, outcome, damage, bank, value)
            point, cancelled = failure_point(model, ps1, first, bank, loss, laid=laid)
            self.finish_loss = point[:2] if point[2] and not cancelled else None
            return done(model.attack_failure(ps1, first, bank, loss, damage, laid=laid), bank, credit,
                        "attack-failed")
        return self.roll(ps1, damage, t, rng, lambda i, h, k, tok: self._choice(key, hit, i, h, k, tok))

    def roll(self, ps1, damage, bank: int, rng, choose, *, rescue: bool = True, info: str | None = None) -> Outcome:
        """One plan (``ps1``) rolled one die group at a time from its start. ``choose(i, hazards, secured,
        tokens)`` says at each point whether to ``"stop"``, ``"secure"`` the next step's dice or ``"roll"`` them.
        The turn ends at a stop, or at a loss of control when the hazards reach the limit or a long jump's die
        fails (cancelled by the SISU token where the plan allows it and ``rescue``); a canon start's failed die
        ends it one cell on. The outcome is labelled by how the turn ended, or by ``info`` when given (the
        table's blocked turns)."""
        model = self.model
        self.finish_loss = None

        def done(outs, tok, why):
            _q, sec, nxt, lost = pick(rng, outs)
            return Outcome(1.0, sec, nxt, tok, lost, info or why)

        def lost(j, tok):
            point = model._point(ps1, j)
            self.finish_loss = point[:2] if point[2] and not (rescue and rescued(ps1, j, tok)) else None
            return model.loss_or_rescue(ps1, j, tok, damage) if rescue else model.loss_outcomes(*point, damage)

        steps = ps1.steps[0]
        h = k = 0
        tok = bank
        for i in range(0, int(ps1.length[0]) + 1):
            act = choose(i, h, k, tok)
            if act == "stop":
                return done(model.stop_outcomes(*model._point(ps1, i), damage), tok, "stop")
            j = i + 1
            dice, _path, _g, events = steps[j - 1]
            if act == "secure":
                m = int(ps1.m[0, j])
                tok -= secure_cost(k, m)
                k += m
                continue
            counted = list(dice)
            if "canon" in events:
                if self._hazards(rng, counted[:1]):
                    return done(model.stop_outcomes(*model._point(ps1, j), damage), tok, "canon")
                counted = counted[1:]
            elif "long-jump" in events:
                if self._hazards(rng, counted[:1]):
                    return done(lost(j, tok), tok, "loss")
                counted = counted[1:]
            h += self._hazards(rng, counted)
            if h >= model.limit:
                return done(lost(j, tok), tok, "loss")
        raise AssertionError("a plan rolled one by one always ends")


def _note(shown: dict, die: str, hit: int) -> None:
    """Count one rolled die of a Big Attack: a gear die by its bit, the others by their kind."""
    if hit:
        if die.startswith("gear"):
            shown["mask"] |= 1 << (int(die[4:]) - 1)
        else:
            shown[die] += 1
