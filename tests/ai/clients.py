"""Side-scoped clients for the AI's tests: what the TUI gives an AI (the view, the legal actions and the odds of one
side), and one whose hidden parts fail the test when the AI reads them."""

from __future__ import annotations

from typing import Any

import engine
from engine.actions import Action
from engine.odds import Odds


class Client:
    """A side-scoped client: the view, the odds and the legal actions of one side, or only those ``keep`` admits (to
    ask the AI one question)."""

    def __init__(self, game: engine.Game, side: str, keep: Any = None) -> None:
        self.game = game
        self._side = side
        self.keep = keep

    @property
    def side(self) -> str:
        return self._side

    def view(self) -> engine.GameState:
        return self.game.view(self._side)

    def legal_actions(self) -> list[Action]:
        acts = self.game.legal_actions(side=self._side)
        return [a for a in acts if self.keep is None or self.keep(a)]

    def odds(self, action: Action) -> Odds | None:
        return self.game.odds(action, side=self._side)


class Poison:
    """Hidden information: any use of it fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the AI read hidden information ({name})")


class PoisonedClient(Client):
    """A client whose view carries poisoned dice and which has no way to the full game but its three queries."""

    def view(self) -> engine.GameState:
        v = self.game.view(self._side).clone()
        v.dice = Poison()  # type: ignore[assignment]
        return v

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the AI asked the client for {name}")
