"""Provides the notation verbs of Blitzkrieg 1940 with their help lines (listed in the ruleset README): the set-up
(12), the sequence of play (2, 5), unit actions and reactions (6–8) and close combat (9). The arguments' kinds and
the verbs' roles are in :mod:`.notation`."""

from __future__ import annotations

__all__ = ["CLOSE_COMBAT", "SEQUENCE", "SETUP", "UNIT"]


SETUP: dict[str, str] = {
    "place": "place UNIT HEX — set the unit up in a hex of its zone (12.1, 12.2, 7.3)",
    "loss": "loss UNIT — give the unit one of its formation's set-up step losses (12.1)",
    "assign": "assign UNIT FORMATION — an independent unit joins a formation with a chit (10.3, 12.1, 12.2)",
    "ownchit": "ownchit FORMATION — the independent formation keeps its own chit in the cup (12.2)",
    "dissolve": "dissolve FORMATION — assign each unit of the independent formation to another one (12.2, 10.3)",
    "mount": "mount COMPANY — the company starts on its battalion's APC (12.1)",
    "nomount": "nomount — no company starts on the APC (12.1)",
    "fort": "fort HEX — place a fortification marker (10.2, 12.1, 12.2)",
    "mine": "mine HEX — place a minefield marker (10.1, 12.2)",
    "default": "default — set up this step as the scenario file does (12)",
    "restart": "restart — take this set-up step back to its start (12)",
}
"""Notation verbs of the set-up (listed in the ruleset README)."""


SEQUENCE: dict[str, str] = {
    "keep": "keep [CHIT] — keep a Replay or General in hand; Hannut set-up: the formation chit kept out (2.8)",
    "first": "first CHIT — Hannut turn 1: resolve this kept chit next (2.8)",
    "cancel": "cancel — try to cancel the enemy chit with your General: 1d6 of 1–3 (5.5)",
    "nocancel": "nocancel — let the enemy chit take effect (5.5)",
    "activate": "activate — activate the drawn formation (5.1)",
    "decline": "decline — do not use the drawn chit: a pass (2.6)",
    "test": "test — exhausted formation: test 2d6 ≤ FF − 2 to remove the marker, then act (5.4)",
    "skip": "skip — exhausted formation: skip the activation to remove the marker, a pass (5.4)",
    "barrage": "barrage — fire the drawn artillery or Stuka chit (8.6)",
    "hold": "hold — hold the drawn chit under your General to combine it later, a pass (5.5)",
    "combine": "combine — activate the held chit together with this one (5.5)",
    "lapse": "lapse — let the held chit lapse; the General is spent (5.5)",
    "replay": "replay FORMATION — play a Replay on a formation (5.3)",
    "general": "general neutral|exhaust|replay — use the General: remove markers or take a Replay (5.5)",
    "clear": "clear UNIT|FORMATION — remove this marker with the General (5.5)",
    "done": "done — stop removing markers (5.5)",
    "discard": "discard — discard the second General (5.5)",
}
"""Notation verbs of the sequence of play (listed in the ruleset README)."""


CLOSE_COMBAT: dict[str, str] = {
    "ccfire": "ccfire UNIT TARGET — close combat: UNIT fires at TARGET in the combat hex (9.1.2, 9.1.3, 9.1.5)",
    "exchange": "exchange UNIT — close combat: take one step loss instead of the N (or the retreat) and stay "
    "(9.1.2, 9.1.5)",
    "fallback": "fallback UNIT — close combat: the attacker goes back into the hex it came from; its move ends "
    "(9.1.2, 9.1.3)",
    "stay": "stay UNIT — close combat: the defender stays after its step loss; an HQ stays and is overrun (9.1.2, 3.2)",
    "withdraw": "withdraw UNIT [HEX] — close combat: the defender retreats one hex; without HEX it cannot and is "
    "eliminated (9.1.2, 9.1.5)",
    "ccon": "ccon — close combat: no (more) voluntary retreats this round (9.1.4, 9.1.5)",
}
"""Notation verbs of close combat (part of :data:`UNIT`)."""


UNIT: dict[str, str] = {
    "move": "move UNIT HEX... — move (all MP), one hex or a path (6.1, 7)",
    "road": "road UNIT HEX... — move in column along roads at the road rate (7.2.1)",
    "mf": "mf UNIT HEX... — move-and-fire: move with half MP, then fire at reduced strength (6.1)",
    "fm": "fm UNIT TARGET — fire at reduced strength, then move with half MP (6.1)",
    "fire": "fire UNIT TARGET — direct fire at full strength (8.1)",
    "stop": "stop UNIT — end the unit's action here; in a moving stack, drop it off (6.1, 7.1)",
    "stack": "stack UNIT UNIT [UNIT] HEX — move two or three units of one hex together, one hex at a time (7.1)",
    "load": "load APC COMPANY — German only: the company boards its APC in the same hex (6.1, 12.1)",
    "unload": "unload APC — the company on board gets off in the APC's hex (6.1, 12.1)",
    "assault": "assault UNIT HEX — move into an enemy-occupied hex: close combat, or overrun of lone HQs (9.1, 3.2)",
    "end": "end — end the activation (5.2)",
    "salvo": "salvo HEX CALIBRE OBSERVER [COUNT] — fire artillery salvos at a hex, observed by an HQ (8.6.1)",
    "stuka": "stuka HEX [COUNT] — Stuka attacks on a hex (8.6.1)",
    "opp": "opp UNIT TARGET — opportunity fire at the moving or firing enemy unit (6.3.1)",
    "retfire": "retfire UNIT TARGET — return fire at the unit that fired (6.3.2)",
    "retreat": "retreat UNIT HEX — retreat one hex (6.3.3)",
    "close": "close — no (more) reactions in this window (6.3.4)",
    "accept": "accept UNIT — keep the Neutralised result (8.3)",
    "steploss": "steploss UNIT — take a step loss instead of the Neutralised result (8.3)",
    "lose": "lose UNIT — the mounted pair's step loss falls on this half: the APC or the company (12.1)",
    **CLOSE_COMBAT,
}
"""Notation verbs of unit actions, reactions, owner choices and close combat."""
