"""Standing orders ("programmed actions"): what a player set the game to do for them, kept as
18xx.games keeps them.

A `program_*` action, from any player at any time (any round, out of turn), replaces that
player's program; `program_disable` removes it. A player holds at most one. Programs are a fact
of the position, rebuilt by replaying the log like everything else. What makes the moves is
elsewhere: `engine.automatic` asks, after each action, the step the game waits for; the step's
rules for programs are a title's `ProgramRules` (the stock round's in
`engine.core.program_stock`). This module holds the programs themselves, the actions that set
them, their names, when a round change drops them, and the round's record of other players'
dealings that a conditional program watches (`History`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import ACTION_TYPES, Action
from engine.core.entities import Player
from engine.core.stock_round import StockRound
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Holder
    from engine.core.game import BaseGame
    from engine.core.step import Move, Step

SHARE_PASS = "program_share_pass"
BUY_SHARES = "program_buy_shares"
MERGER_PASS = "program_merger_pass"
DISABLE = "program_disable"
# Program types of other titles on the site: stored if one arrives (it replaces the player's
# program), never fired, dropped by round changes as the site drops them.
AUCTION_BID = "program_auction_bid"
CLOSE_PASS = "program_close_pass"
INDEPENDENT_MINES = "program_independent_mines"
HARZBAHN_DRAFT_PASS = "program_harzbahn_draft_pass"
OTHER_TITLES = (AUCTION_BID, CLOSE_PASS, INDEPENDENT_MINES, HARZBAHN_DRAFT_PASS)
FLOAT = "float"
DISABLE_OTHERS = "disable_others"
USER = "user"  # the reason of a program switched off by its owner

# Round kinds, as titles name them in their round sequences.
STOCK, OPERATING, AUCTION = "stock", "operating", "auction"


# --- the actions -------------------------------------------------------------------------------
def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise GameError(f"{key} is true or false, not {value!r}")
    return value


@dataclass(frozen=True)
class ProgramAction(Action):
    """An action that sets or removes a standing order; it changes nothing else."""

    @staticmethod
    def common(raw: Mapping[str, Any]) -> dict[str, Any]:
        fields = Action.common(raw)
        if fields["entity_type"] != "player" or fields["entity"] is None:
            raise GameError(f"{raw.get('type')}: a standing order belongs to a player (entity_type player)")
        return fields


@dataclass(frozen=True)
class ProgramSharePass(ProgramAction):
    """Standing order: pass in the stock rounds (until the player acts, or indefinitely)."""

    type: ClassVar[str] = SHARE_PASS
    unconditional: bool = False
    indefinite: bool = False

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ProgramSharePass:
        return cls(**cls.common(raw), unconditional=_flag(raw, "unconditional"),
                   indefinite=_flag(raw, "indefinite"))


@dataclass(frozen=True)
class ProgramBuyShares(ProgramAction):
    """Standing order: buy a company's shares each stock turn until a condition holds."""

    type: ClassVar[str] = BUY_SHARES
    corporation: str = ""
    until_condition: str | int = FLOAT
    from_market: bool = False
    auto_pass_after: bool = False

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ProgramBuyShares:
        corporation = raw.get("corporation")
        if not isinstance(corporation, str) or not corporation:
            raise GameError(f"{BUY_SHARES}: name the company with corporation")
        until = raw.get("until_condition")
        if until != FLOAT and (isinstance(until, bool) or not isinstance(until, int) or until < 0):
            raise GameError(f"{BUY_SHARES}: until_condition is \"float\" or a number of shares, not {until!r}")
        return cls(**cls.common(raw), corporation=corporation, until_condition=until,
                   from_market=_flag(raw, "from_market"), auto_pass_after=_flag(raw, "auto_pass_after"))


@dataclass(frozen=True)
class ProgramMergerPass(ProgramAction):
    """Standing order: pass in merger and acquisition rounds for the companies listed."""

    type: ClassVar[str] = MERGER_PASS
    # Round key ("MR", "AR") -> companies to pass for, in the order given; None: none at all.
    corporations_by_round: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    options: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ProgramMergerPass:
        by_round = raw.get("corporations_by_round")
        pairs: tuple[tuple[str, tuple[str, ...]], ...] | None = None
        if by_round is not None:
            if not isinstance(by_round, Mapping) or not all(
                    isinstance(key, str) and isinstance(names, list) and all(isinstance(n, str) for n in names)
                    for key, names in by_round.items()):
                raise GameError(f"{MERGER_PASS}: corporations_by_round maps MR and AR to lists of companies")
            pairs = tuple((key, tuple(names)) for key, names in by_round.items())
        options = raw.get("options") or []
        if not isinstance(options, list) or not all(isinstance(option, str) for option in options):
            raise GameError(f"{MERGER_PASS}: options is a list such as [\"{DISABLE_OTHERS}\"]")
        return cls(**cls.common(raw), corporations_by_round=pairs, options=tuple(options))

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.corporations_by_round is not None:
            out["corporations_by_round"] = {key: list(names) for key, names in self.corporations_by_round}
        return out


@dataclass(frozen=True)
class ProgramDisable(ProgramAction):
    """A standing order switched off, by its owner or by the game, with the reason."""

    type: ClassVar[str] = DISABLE
    reason: str = ""
    original_type: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ProgramDisable:
        reason = raw.get("reason")
        if not isinstance(reason, str) or not reason:
            raise GameError(f"{DISABLE}: give the reason as text")
        original = raw.get("original_type")
        if original is not None and not isinstance(original, str):
            raise GameError(f"{DISABLE}: original_type is a program type, not {original!r}")
        return cls(**cls.common(raw), reason=reason, original_type=original)


@dataclass(frozen=True)
class ProgramOfAnotherTitle(ProgramAction):
    """A program type 18USA and 18Texas never fire (`OTHER_TITLES`), kept as sent."""

    type: ClassVar[str] = "program_other"

    @property
    def kind(self) -> str:
        return str(self.raw.get("type"))


for _cls in (ProgramSharePass, ProgramBuyShares, ProgramMergerPass, ProgramDisable):
    ACTION_TYPES[_cls.type] = _cls
for _kind in OTHER_TITLES:
    ACTION_TYPES[_kind] = ProgramOfAnotherTitle


# --- the programs ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Program:
    """A player's standing order. `action_id` and `created_at` are those of the action that set
    it (an order set by another program's end has no id); `serial` counts the top-level action
    it came with (`ProgramBook.serial`)."""

    kind: ClassVar[str] = ""
    owner: str
    action_id: int | None
    created_at: int | None
    serial: int

    def describe(self) -> str:
        """The site's name for it, as its owner's private log lines give it."""
        return self.kind

    def kept_in(self, round_kind: str, merger_kinds: frozenset[str]) -> bool:
        """Whether it survives the game's moving into a round of `round_kind`."""
        return True


@dataclass(frozen=True)
class SharePass(Program):
    """A player's standing order to pass in the stock rounds."""

    kind: ClassVar[str] = SHARE_PASS
    unconditional: bool = False
    indefinite: bool = False

    def describe(self) -> str:
        return ("Pass in Stock Round" + (", unconditionally" if self.unconditional else "")
                + (", indefinitely" if self.indefinite else ""))

    def kept_in(self, round_kind: str, merger_kinds: frozenset[str]) -> bool:
        return self.indefinite or round_kind == STOCK


@dataclass(frozen=True)
class BuyShares(Program):
    """A player's standing order to buy shares of one company until a condition."""

    kind: ClassVar[str] = BUY_SHARES
    corporation: str = ""
    until: str | int = FLOAT
    from_market: bool = False
    auto_pass_after: bool = False

    def describe(self) -> str:
        # The site says "IPO" whatever the game calls the company's own shares.
        goal = "floated" if self.until == FLOAT else f"{self.until} shares"
        return (f"Buy {self.corporation} from {'market' if self.from_market else 'IPO'} until {goal}"
                + (", then auto pass" if self.auto_pass_after else ""))

    def kept_in(self, round_kind: str, merger_kinds: frozenset[str]) -> bool:
        return round_kind == STOCK


@dataclass(frozen=True)
class MergerPass(Program):
    """A player's standing order to pass in merger and acquisition rounds."""

    kind: ClassVar[str] = MERGER_PASS
    by_round: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    disable_others: bool = False

    def describe(self) -> str:
        rounds = " and ".join(f"{key} ({', '.join(names) or 'none'})" for key, names in self.by_round or ())
        return f"Pass on mergers in {rounds}" + (", unless someone else acts" if self.disable_others else "")

    def kept_in(self, round_kind: str, merger_kinds: frozenset[str]) -> bool:
        return round_kind in merger_kinds

    def companies_in(self, key: str) -> tuple[str, ...]:
        return next((names for named, names in self.by_round or () if named == key), ())


@dataclass(frozen=True)
class OtherTitleProgram(Program):
    """Another title's program: never fires here; dropped at round changes as the site drops it."""

    kind: ClassVar[str] = "program_other"
    type_name: str = ""
    indefinite: bool = False

    def describe(self) -> str:
        return self.type_name

    def kept_in(self, round_kind: str, merger_kinds: frozenset[str]) -> bool:
        if self.type_name in (AUCTION_BID, HARZBAHN_DRAFT_PASS):
            return round_kind == AUCTION
        if self.type_name == INDEPENDENT_MINES:
            return self.indefinite or round_kind == OPERATING
        return True


def program_from(action: ProgramAction, serial: int) -> Program:
    """The program an enabling action sets."""
    raw = action.raw
    action_id = raw.get("id") if isinstance(raw.get("id"), int) else None
    created = raw.get("created_at") if isinstance(raw.get("created_at"), int) else None
    common: dict[str, Any] = {"owner": str(action.entity), "action_id": action_id, "created_at": created,
                              "serial": serial}
    if isinstance(action, ProgramSharePass):
        return SharePass(**common, unconditional=action.unconditional, indefinite=action.indefinite)
    if isinstance(action, ProgramBuyShares):
        return BuyShares(**common, corporation=action.corporation, until=action.until_condition,
                         from_market=action.from_market, auto_pass_after=action.auto_pass_after)
    if isinstance(action, ProgramMergerPass):
        return MergerPass(**common, by_round=action.corporations_by_round,
                          disable_others=DISABLE_OTHERS in action.options)
    assert isinstance(action, ProgramOfAnotherTitle)
    return OtherTitleProgram(**common, type_name=action.kind, indefinite=bool(raw.get("indefinite")))


# --- the record a conditional program watches -------------------------------------------------
@dataclass(frozen=True)
class Dealing:
    """One of a player's dealings in this stock round that another player's program may react to:
    a purchase, sale, start (par), short sale, or one of their companies' loans or redemptions."""

    kind: str  # the action type: buy_shares, sell_shares, par, short, take_loan
    corporation: str  # the company it concerns
    by_company: bool  # the company itself acted (a loan, or buying its own shares)
    action_id: int | None
    created_at: int | None

    def newer_than(self, program: Program) -> bool:
        """Not older than the program: ids compared when both have one, else whole seconds (the
        same second counts as not older); without either, not older."""
        if self.action_id is not None and program.action_id is not None:
            return self.action_id >= program.action_id
        if self.created_at is not None and program.created_at is not None:
            return self.created_at >= program.created_at
        return True


TRACKED = frozenset({"buy_shares", "sell_shares", "par", "short", "take_loan"})


@dataclass
class Notice:
    """What happened to a player's program, for its owner alone: enabled, disabled (with the
    reason) or removed by a round change."""

    owner: str
    event: str  # "enabled", "disabled" or "removed"
    program: Program
    reason: str = ""

    def text(self) -> str:
        """The site's private log line."""
        if self.event == "enabled":
            return f"Enabled programmed action '{self.program.describe()}'"
        if self.event == "disabled":
            return f"Disabled programmed action '{self.program.describe()}' due to '{self.reason}'"
        return f"Programmed action '{self.program.describe()}' removed due to round change"


@dataclass
class ProgramBook:
    """Every player's program, and what a program's rules read besides the position."""

    programs: dict[str, Program] = field(default_factory=dict)  # by player key
    # This stock round's dealings by player (in the order players first appeared), then by
    # company (in the order first touched since that player's turn began), oldest first. A
    # player's own are cleared when their turn begins.
    history: dict[str, dict[str, list[Dealing]]] = field(default_factory=dict)
    serial: int = 0  # top-level actions processed
    top_id: int | None = None  # the id and time of the top-level action being processed
    top_created_at: int | None = None
    notices: list[Notice] = field(default_factory=list)

    def of(self, player_key: str) -> Program | None:
        return self.programs.get(player_key)

    # --- the action being processed ---------------------------------------------------------------
    def begin_top_level(self, raw: Mapping[str, Any]) -> None:
        self.serial += 1
        self.top_id = raw.get("id") if isinstance(raw.get("id"), int) else None
        self.top_created_at = raw.get("created_at") if isinstance(raw.get("created_at"), int) else None

    def set_by_current_action(self, program: Program) -> bool:
        """Whether `program` was set by the top-level action now being processed (so the moves that
        follow it are still that action's)."""
        return program.serial == self.serial

    # --- setting and removing ---------------------------------------------------------------------
    def process(self, game: BaseGame, action: ProgramAction) -> None:
        player = game.player(action.entity)
        if isinstance(action, ProgramDisable):
            self.disable(player.key, action.reason)
            return
        if isinstance(action, ProgramBuyShares):
            game.corporation(action.corporation)
        program = program_from(action, self.serial)
        self.programs.pop(player.key, None)  # one program a player
        self.programs[player.key] = program
        self.notices.append(Notice(player.key, "enabled", program))

    def disable(self, player_key: str, reason: str) -> None:
        program = self.programs.pop(player_key, None)
        if program is not None:
            self.notices.append(Notice(player_key, "disabled", program, reason))

    def round_changed(self, round_kind: str, merger_kinds: frozenset[str]) -> None:
        """The game moves into a new round: the record starts again, and each program not kept
        in such a round is dropped."""
        self.history.clear()
        for owner, program in list(self.programs.items()):
            if not program.kept_in(round_kind, merger_kinds):
                del self.programs[owner]
                self.notices.append(Notice(owner, "removed", program))

    # --- the stock round's record ------------------------------------------------------------------
    def turn_started(self, player_key: str) -> None:
        # Assigning keeps a player already recorded where they first appeared.
        self.history[player_key] = {}

    def note(self, player_key: str, dealing: Dealing) -> None:
        self.history.setdefault(player_key, {}).setdefault(dealing.corporation, []).append(dealing)

    def note_action(self, game: BaseGame, entity: Holder, action: Action) -> None:
        """Record a stock-round dealing before it is processed (a refused one leaves no trace: the
        game is restored as a whole)."""
        from engine.core.entities import Corporation
        from engine.core.step import controller

        if action.type not in TRACKED:
            return
        player = controller(entity)
        if player is None:
            return
        shares = getattr(action, "shares", ())
        corporation = (entity.key if action.type == "take_loan" else str(getattr(action, "corporation", "") or "")
                       or (shares[0].rsplit("_", 1)[0] if shares else ""))
        if not corporation:
            return
        raw = action.raw
        self.note(player.key, Dealing(
            action.type, corporation, isinstance(entity, Corporation),
            raw.get("id") if isinstance(raw.get("id"), int) else None,
            raw.get("created_at") if isinstance(raw.get("created_at"), int) else None))

    def note_engine_par(self, player_key: str, corporation: str) -> None:
        """A company the engine starts for a player (18USA: the winner of its auction), dated by the
        top-level action that set it off."""
        self.note(player_key, Dealing("par", corporation, False, self.top_id, self.top_created_at))


# --- the rules a title gives its programs ------------------------------------------------------
class ProgramRules:
    """Where a title's programs act. The default is the site's stock-round rules for share pass
    and buy shares, in any `BuySellParShares` step; a title with more (18USA's merger rounds)
    subclasses this and names it in its game class (`PROGRAM_RULES`)."""

    # A president holding this percent of a company is secure: an opponent's purchase of it does
    # not stop their share-pass program.
    secure_percent: ClassVar[int] = 50
    # The round kinds that count as merger rounds for a merger-pass program, with the key its
    # companies are listed under ("merger" -> "MR").
    merger_rounds: ClassVar[Mapping[str, str]] = {}
    # The program types the title offers its players, in the order its page lists them.
    offered: ClassVar[tuple[str, ...]] = (BUY_SHARES, SHARE_PASS)
    # How the site's reasons name a company's own shares as a source ("IPO" in most titles; both
    # 18Texas and 18USA say "Treasury").
    ipo_name: ClassVar[str] = "Treasury"

    @property
    def merger_kinds(self) -> frozenset[str]:
        return frozenset(self.merger_rounds)

    def merger_companies(self, game: BaseGame, player: Player) -> list[Corporation]:
        """The player's companies a merger pass may list: none where the title has no merger rounds."""
        return []

    def idle_pass(self, game: BaseGame, step: Step, entity: Holder) -> Move | None:
        """The pass the game may make for an absent player (Stationmaster's `/auto away`, not the
        site's): where `step` waits for `entity` and passing is the only sensible choice, a stock
        round's turn (not while they must sell); None where the decision is theirs."""
        from engine.core.program_stock import pass_move
        from engine.core.steps.shares import BuySellParShares

        rnd = game.round
        if isinstance(step, BuySellParShares) and isinstance(entity, Player) and isinstance(rnd, StockRound):
            offered = {move["type"] for move in step.legal_moves(game, rnd) if str(move["entity"]) == str(entity.id)}
            if "pass" in offered and step.must_sell_reason(game, rnd, entity) is None:
                return pass_move(entity)
        return None

    def forced(self, game: BaseGame, step: Step, entity: Holder) -> list[Move]:
        """A move the rules leave `entity` no choice about, which the game makes before any
        program is asked (18USA: a bidder who cannot reach the minimum bid passes)."""
        return []

    def answer(self, game: BaseGame, step: Step, entity: Holder) -> list[Move]:
        """The moves `step`, the step the game waits for, makes by itself for `entity` (the
        entity to act) now: none, a pass or purchase, or a program's end."""
        from engine.core.program_stock import stock_step_moves
        from engine.core.steps.shares import BuySellParShares

        if isinstance(step, BuySellParShares):
            return stock_step_moves(game, step, entity)
        return []
