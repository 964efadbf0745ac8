"""The shared game: the position, money and certificates, phases, the round sequence, and
processing of actions.

A title subclasses `BaseGame`, supplies its data, declares its rounds and their steps
(`ROUNDS`, `round_specs`) and overrides the hooks of `engine.core.rules.TitleRules`.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from engine.core.actions import Action, EndGame, Meta, parse_action
from engine.core.board import Board
from engine.core.commands import CommandSpec, standard
from engine.core.entities import (
    Company,
    Corporation,
    Holder,
    Player,
    Pool,
    Share,
    Train,
)
from engine.core.operating_round import OperatingRound
from engine.core.phases import FirstTrainEffects, Phase, first_train_effects, parse_phases
from engine.core.programs import ProgramAction, ProgramBook, ProgramRules
from engine.core.rng import SetupRandom
from engine.core.round import OperatingSet, Round, RoundSequence, RoundSpec
from engine.core.route_hooks import RouteHooksMixin
from engine.core.rules import TitleRules
from engine.core.sequence import RoundCursor
from engine.core.services.bank import Bank
from engine.core.services.depot import Depot
from engine.core.services.ledger import ShareLedger
from engine.core.services.loans import Loans
from engine.core.services.market import StockMarket
from engine.core.step import Step
from engine.core.steps.buy_train import BuyTrainStep
from engine.core.steps.cash_crisis import CashCrisisStep, Debt
from engine.core.steps.discard import DiscardTrainStep
from engine.core.steps.dividend import DividendStep
from engine.core.steps.pending_token import PendingToken, PendingTokenStep
from engine.core.steps.route import RouteStep
from engine.core.steps.shares import BuySellParShares
from engine.core.steps.token import TokenStep
from engine.core.steps.track import TrackStep
from engine.core.stock_round import StockRound
from engine.errors import GameError


class BaseGame(TitleRules, RouteHooksMixin):
    """State of one game and the mechanics every title shares."""

    # The commands the front ends offer for this title's actions (engine/core/commands.py).
    COMMANDS: ClassVar[tuple[CommandSpec, ...]] = standard(
        "par", "buy", "sell", "pass", "lay", "token", "run", "dividend", "train", "discard", "bankrupt")
    # The order of rounds, by the kinds `round_specs` defines.
    ROUNDS: ClassVar[RoundSequence] = RoundSequence(
        opening=(), cycle=("stock", OperatingSet(("operating",))))

    TITLE: ClassVar[str] = ""
    RULE_OPTIONS: ClassVar[dict[str, str]] = {}
    # Where a company wholly held by players moves at the end of a stock round (None: stays).
    SOLD_OUT_MOVE: ClassVar[str | None] = None
    # Whether a holding may be negative (short sales).
    NEGATIVE_HOLDINGS: ClassVar[bool] = False
    # The index of the first certificate a short sale makes (ids CORP_<index>).
    FIRST_SHORT_INDEX: ClassVar[int] = 0
    # Whether discarded trains go to the open market, to be bought again, or leave the game.
    DISCARDS_TO_MARKET: ClassVar[bool] = False
    # Where players' standing orders act (engine/core/programs.py).
    PROGRAM_RULES: ClassVar[ProgramRules] = ProgramRules()

    def __init__(self, players: list[dict[str, Any]], seed: int,
                 options: list[str] | None = None) -> None:
        self.data = self.title_data()
        self.seed = seed
        self.options: set[str] = set(options or [])
        unknown = self.options - set(self.RULE_OPTIONS)
        if unknown:
            raise GameError(f"unknown rule option(s) {sorted(unknown)}; known: {sorted(self.RULE_OPTIONS)}")
        self.rng = SetupRandom(seed)
        constants = self.data["entities"]["constants"]
        count = len(players)
        low, high = self.data["entities"]["player_range"]
        if not low <= count <= high:
            raise GameError(f"{self.TITLE} is for {low} to {high} players, not {count}")
        self.bank = Bank.from_constant(constants["bank_cash"])
        self.ledger = ShareLedger(negative_holdings=self.NEGATIVE_HOLDINGS,
                                  first_short_index=self.FIRST_SHORT_INDEX)
        self.loans = Loans.from_constants(constants)
        self.pool = Pool()
        start_cash = int(constants["starting_cash"][str(count)])
        self.players: list[Player] = []
        for raw in players:
            player_id = raw.get("id", raw.get("name"))
            if player_id is None:
                raise GameError("every player needs an id or a name")
            player = Player(id=player_id, name=str(raw.get("name", player_id)), cash=0)
            self.players.append(player)
            self.transfer(self.bank, player, start_cash)
        if len({p.key for p in self.players}) != count:
            raise GameError("player ids must be different")
        self.cert_limit = int(constants["certificate_limit"][str(count)])
        self.board = self.make_board()
        self.market = StockMarket(self.data["market"])
        self.depot = Depot.from_data(self.data["entities"]["trains"], count)
        self.phases: list[Phase] = parse_phases(self.data["entities"]["phases"])
        self.phase_index = 0
        self.corporations: dict[str, Corporation] = {}
        self.companies: dict[str, Company] = {}
        self.turn = 1
        self.round_num = 1
        self.operating_rounds = self.phase.operating_rounds
        self.finished = False
        self.end_reason: str | None = None
        self.ending: str | None = None  # the reason the game ends once the action has played out
        self.priority_index = 0
        self.log: list[str] = []
        self.raw_actions: list[dict[str, Any]] = []
        self.last_tile_hexes: list[str] = []
        self.last_runs: list[Any] = []
        self.importing = False
        # The route optimizer's search where runs are held to the most (must_run_for_the_most):
        # the seconds it may take and the search it uses (None: its own choice; see router.py).
        self.most_earnings_budget = 1.0
        self.most_earnings_method: str | None = None
        # The optimizer's answer for the position about to be played, when the caller searched it
        # elsewhere (the bot: in a worker process, so that its event loop never waits on a search);
        # the run check takes it instead of searching (steps/route.py, given_most).
        self.most_earnings_known: Any = None
        self.cursor = RoundCursor()
        # What interrupting steps wait for: unpaid debts, stations to place.
        self.cash_crisis: list[Debt] = []
        self.pending_tokens: list[PendingToken] = []
        # The players' standing orders, and what they watch (engine/core/programs.py).
        self.programs = ProgramBook()
        self.setup()
        self.cursor.enter(self)
        self.round: Round = self.make_round(self.cursor.kind(self.ROUNDS))
        self.round.start(self)
        self.settle()

    # --- hooks for titles ------------------------------------------------------------------
    def title_data(self) -> dict[str, Any]:
        raise NotImplementedError

    def make_board(self) -> Board:
        """The map before play, made once the players are seated (a title whose map depends on
        its random setup deals it here)."""
        return Board(self.data["map"], self.data["tiles"])

    def setup(self) -> None:
        """Create corporations and companies and do the random setup."""

    def round_specs(self) -> dict[str, RoundSpec]:
        """Each kind of round the title plays, with its steps in order."""
        return {
            "stock": RoundSpec(StockRound, (BuySellParShares(),)),
            "operating": RoundSpec(OperatingRound, (TrackStep(), TokenStep(), RouteStep(), DividendStep(),
                                                    BuyTrainStep())),
        }

    def interrupt_steps(self) -> tuple[Step, ...]:
        return (DiscardTrainStep(), CashCrisisStep(), PendingTokenStep())

    def end_after_operating_set(self) -> str | None:
        """Why the game ends after a set of operating rounds (1829 family: a broken bank)."""
        return "bank" if self.bank_broken else None

    def make_round(self, kind: str) -> Round:
        return self.round_specs()[kind].make(tuple(self.interrupt_steps()))

    def next_round(self) -> Round | None:
        """The round after the current one, or None when the game ends between rounds."""
        kind = self.cursor.advance(self)
        return None if kind is None else self.make_round(kind)

    # --- lookups ---------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.phases[self.phase_index]

    def option(self, name: str) -> bool:
        return name in self.options

    def player(self, key: Any) -> Player:
        for player in self.players:
            if player.key == str(key) or player.id == key:
                return player
        raise GameError(f"there is no player {key!r} in this game")

    def corporation(self, key: Any) -> Corporation:
        try:
            return self.corporations[str(key)]
        except KeyError:
            raise GameError(f"there is no company {key!r}; companies: {', '.join(self.corporations)}") from None

    def company(self, key: Any) -> Company:
        try:
            return self.companies[str(key)]
        except KeyError:
            raise GameError(f"there is no private company {key!r}") from None

    def entity(self, action: Action) -> Holder:
        """Who takes an action."""
        return self.lookup(action.entity_type, action.entity)

    def lookup(self, kind: str, key: Any) -> Holder:
        if kind == "player":
            return self.player(key)
        if kind == "corporation":
            return self.corporation(key)
        if kind == "company":
            return self.company(key)
        raise GameError(f"unknown entity type {kind!r}")

    def share_price(self, corporation: Corporation) -> int:
        return self.market.cell_of(corporation.id).price

    def colors_available(self) -> tuple[str, ...]:
        return self.phase.tiles

    def player_left_of(self, player: Player, offset: int = 1) -> Player:
        index = self.players.index(player)
        return self.players[(index + offset) % len(self.players)]

    def next_player_in(self, player: Player) -> Player:
        """`player`, or the first player to their left still in the game (not bankrupt)."""
        for candidate in self.players_from(player):
            if not candidate.bankrupt:
                return candidate
        return player

    def players_from(self, player: Player) -> list[Player]:
        index = self.players.index(player)
        return self.players[index:] + self.players[:index]

    @property
    def priority_player(self) -> Player:
        return self.players[self.priority_index]

    # --- money -----------------------------------------------------------------------------
    def transfer(self, source: Holder, target: Holder, amount: int) -> None:
        if amount < 0:
            raise GameError("a payment cannot be negative")
        if source is not self.bank and source.cash < amount:
            raise GameError(f"{self.describe(source)} has ${source.cash}, not ${amount}")
        source.cash -= amount
        target.cash += amount
        if source is self.bank and self.bank.paid_out():
            self.log.append("The bank has broken")

    @property
    def bank_broken(self) -> bool:
        return self.bank.broken

    def companies_in_play(self) -> list[Company]:
        """Private companies open and in play: held by someone, or for sale at a face value. A
        company nobody holds that has no face value is not one (18USA's subsidies waiting on
        the map)."""
        return [company for company in self.companies.values()
                if not company.closed and (company.owner is not None or company.value)]

    def describe(self, holder: Holder | None) -> str:
        if holder is None:
            return "nobody"
        if isinstance(holder, Player):
            return holder.name
        return holder.key

    # --- certificates ----------------------------------------------------------------------
    def certificate_count(self, player: Player) -> int:
        shares = sum(1 for corp in self.corporations.values() for share in corp.shares
                     if share.owner is player and self.counts_toward_limit(share))
        companies = sum(1 for company in self.companies.values()
                        if company.owner is player and not company.closed)
        return shares + companies

    def buy_within_certificate_limit(self, player: Player, share: Share) -> bool:
        """Whether the player may buy `share` as far as the certificate limit goes."""
        return self.certificate_count(player) < self.cert_limit

    def counts_toward_limit(self, share: Share) -> bool:
        return True

    def swap_presidency(self, corporation: Corporation, old: Player, new: Player) -> None:
        """The new president hands ordinary shares worth the president's certificate to the old."""
        president_share = corporation.president_share()
        needed = president_share.percent
        given = 0
        # As on the reference site, the shares held longest are the ones handed over.
        for share in self.ledger.holding_order(corporation, new):
            if given >= needed:
                break
            if share.president:
                continue
            self.ledger.move(share, old)
            given += share.percent
        self.ledger.move(president_share, new)
        self.log.append(f"{new.name} becomes the president of {corporation.id}")

    def new_president_after(self, corporation: Corporation, current: Player,
                            current_percent: int) -> Player | None:
        """The player who takes over when `current` holds `current_percent`, or None."""
        best: Player | None = None
        best_percent = current_percent
        for candidate in self.players_from(current)[1:]:
            percent = corporation.percent_owned_by(candidate)
            if percent > best_percent and percent >= corporation.president_share().percent:
                best, best_percent = candidate, percent
        return best

    def check_presidency_after_buy(self, corporation: Corporation, buyer: Player) -> None:
        president = corporation.president()
        if president is None or president is buyer:
            return
        if corporation.percent_owned_by(buyer) > corporation.percent_owned_by(president):
            self.swap_presidency(corporation, president, buyer)

    # --- starting and floating companies ---------------------------------------------------
    def check_par(self, player: Player, corporation: Corporation, cell: Any) -> None:
        if corporation.ipoed:
            raise GameError(f"{corporation.id} has already been started")
        if cell is None or not cell.is_par:
            pars = ", ".join(f"${c.price} ({c.engine_id})" for c in self.market.par_cells())
            raise GameError(f"choose a par price from the par spaces: {pars}")
        cost = self.par_cost(corporation, cell.price)
        if player.cash < cost:
            raise GameError(f"starting {corporation.id} at ${cell.price} costs ${cost}; {player.name} has ${player.cash}")

    def par_corporation(self, player: Player, corporation: Corporation, cell: Any, pay: bool) -> None:
        corporation.ipoed = True
        self.market.place(corporation.id, cell)
        share = corporation.president_share()
        price = self.par_cost(corporation, cell.price)
        if pay:
            self.transfer(player, corporation, price)
        self.ledger.move(share, player)
        self.log.append(f"{player.name} starts {corporation.id} at ${cell.price}")
        self.check_float(corporation)

    def check_float(self, corporation: Corporation) -> None:
        if not corporation.floated and corporation.percent_held_by_players() >= corporation.float_percent:
            corporation.floated = True
            self.log.append(f"{corporation.id} floats")
            self.on_float(corporation)

    def end_of_stock_round(self) -> None:
        """Companies wholly held by players move as the title says (SOLD_OUT_MOVE)."""
        if self.SOLD_OUT_MOVE is None:
            return
        sold_out = [corp for corp in self.operating_order_all()
                    if corp.percent_held_by_players() >= 100]
        for corp in sold_out:
            self.market.move(corp.id, self.SOLD_OUT_MOVE)

    def operating_order_all(self) -> list[Corporation]:
        placed = [corp for corp in self.corporations.values() if corp.id in self.market.position]
        return sorted(placed, key=lambda corp: self.market.operating_key(corp.id))

    # --- queries the front ends show -------------------------------------------------------
    def blocking_companies(self, coord: str) -> list[Company]:
        """Open private companies that forbid tile lays in a hex."""
        state = self.board.hexes[coord]
        found = [self.companies.get(company_id) for company_id in state.hexdef.blocked_by]
        return [company for company in found if company is not None and not company.closed]

    def pending_reservations(self, coord: str, city_index: int) -> list[str]:
        """Companies whose home space in this city is still kept free for their first station."""
        state = self.board.hexes[coord]
        here = state.corporations_here()
        pending = []
        for printed_index, corp_ids in state.hexdef.reserved.items():
            # A home city merged into one city by an upgrade keeps its reservation there.
            target = printed_index if len(state.tokens) > 1 else 0
            if target != city_index:
                continue
            pending += [corp_id for corp_id in corp_ids if corp_id in self.corporations and corp_id not in here]
        return pending

    def round_title(self) -> str:
        """'Stock Round 3', 'Operating Round 3.2', 'Auction Round', 'Game over'."""
        return "Game over" if self.finished else self.round.title(self)

    def round_label(self) -> str:
        """'Stock Round 3', 'Operating Round 3.2 — SP operating', 'Game over (bank)'."""
        if self.finished:
            return f"Game over ({self.end_reason})" if self.end_reason else "Game over"
        return self.round.label(self)

    # --- trains and phases -----------------------------------------------------------------
    def other_president_selling(self, buyer: Corporation, train_id: str) -> Player | None:
        """The president of the company that owns `train_id`, when that is another company with
        another president: the player a title's consent rule asks (see `train_sale_consent`)."""
        train = next((t for t in self.all_trains() if t.id == train_id), None)
        seller = train.owner if train is not None else None
        if not isinstance(seller, Corporation) or seller is buyer:
            return None
        president = seller.president()
        return president if president is not buyer.president() else None

    def all_trains(self) -> list[Train]:
        return [train for corp in self.corporations.values() for train in corp.trains]

    def first_train_effects(self, name: str) -> FirstTrainEffects:
        """What the first train of a kind would set off if it were bought now."""
        return first_train_effects(self, name)

    def on_phase_change(self, phase: Phase) -> None:
        """Title hook for what a new phase starts."""

    def on_train_event(self, event: str) -> None:
        if event == "close_companies":
            self.close_all_companies()

    def close_all_companies(self) -> None:
        for company in self.companies.values():
            if not company.closed:
                company.closed = True
        self.log.append("The private companies close")

    def pay_private_revenue(self) -> None:
        for company in self.companies.values():
            if company.closed or company.owner is None or not company.revenue:
                continue
            self.transfer(self.bank, company.owner, company.revenue)
            self.log.append(f"{company.owner.name} collects ${company.revenue} from {company.id}")

    def end_of_operating_round(self) -> None:
        """Title hook run when an operating round ends."""

    def bankrupt(self, player: Player) -> None:
        """A player who cannot pay goes bankrupt: their cash goes to the bank (1829 family: the
        game ends; titles where play goes on override this)."""
        self.transfer(player, self.bank, player.cash)
        player.bankrupt = True
        self.log.append(f"{player.name} is bankrupt")
        self.end_game("bankrupt")

    # --- the market --------------------------------------------------------------------------
    def operating_order(self) -> list[Corporation]:
        floated = [corp for corp in self.corporations.values() if corp.floated and not corp.closed]
        return sorted(floated, key=lambda corp: self.market.operating_key(corp.id))

    # --- values and the end of the game ----------------------------------------------------
    def player_value(self, player: Player) -> int:
        shares = sum(
            self.share_price(corp) * corp.units(share.percent)
            for corp in self.corporations.values() if corp.id in self.market.position
            for share in corp.shares if share.owner is player
        )
        companies = sum(company.value for company in self.companies.values()
                        if company.owner is player and not company.closed)
        return player.cash + shares + companies

    def result(self) -> dict[str, int]:
        return {player.key: self.player_value(player) for player in self.players}

    def end_game(self, reason: str) -> None:
        self.finished = True
        self.end_reason = reason
        self.log.append(f"The game ends ({reason.replace('_', ' ')})")

    def end_when_settled(self, reason: str) -> None:
        """End the game once the action being played has played out: the steps and the round's
        end that need no decision happen first, no new round begins."""
        self.ending = reason

    # --- processing --------------------------------------------------------------------------
    def acting_players(self) -> list[Player]:
        if self.finished:
            return []
        return self.round.acting_players(self)

    def _shared_by_copies(self) -> dict[int, Any]:
        """A deepcopy memo: the title data is read-only, logged actions are never changed and
        steps are stateless, so copies of the position share them (copying the data was most
        of the cost of every move)."""
        memo: dict[int, Any] = {id(self.data): self.data, id(self.raw_actions): list(self.raw_actions)}
        memo.update({id(step): step for step in self.round.steps})  # steps hold no state
        return memo

    def snapshot(self) -> BaseGame:
        """A copy of the position that later moves leave alone (front doors draw pictures
        from it while the game goes on)."""
        return copy.deepcopy(self, self._shared_by_copies())

    def process(self, action: dict[str, Any]) -> None:
        """Apply one action; on a GameError the game is exactly as before."""
        backup = self.checkpoint()
        try:
            self.apply(action)
        except GameError:
            self.restore(backup)
            raise
        except Exception as error:  # a bug must not leave a half-applied move behind
            self.restore(backup)
            raise GameError(f"internal error while applying {action.get('type')}: {error!r}") from error

    def apply(self, action: dict[str, Any]) -> None:
        """Apply one action and its recorded auto_actions without a safety copy."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise GameError("an action is a JSON object with a 'type'")
        self.programs.begin_top_level(action)
        self._apply_one(action)
        for auto in action.get("auto_actions") or []:
            self._apply_one(auto)
        self.raw_actions.append(action)

    def apply_automatic(self, raw: dict[str, Any]) -> None:
        """Apply a move the game makes by itself after the top-level action being processed (a
        standing order's, engine/automatic.py), without a safety copy (see `checkpoint`)."""
        self._apply_one(raw)

    def checkpoint(self) -> dict[str, Any]:
        """A copy of the position to go back to with `restore`."""
        return copy.deepcopy(self.__dict__, self._shared_by_copies())

    def restore(self, checkpoint: dict[str, Any]) -> None:
        self.__dict__.clear()
        self.__dict__.update(checkpoint)

    def _apply_one(self, raw: dict[str, Any]) -> None:
        action = parse_action(raw)
        if isinstance(action, ProgramAction):
            if self.finished:
                raise GameError("the game is over")
            self.programs.process(self, action)
            return
        if isinstance(action, Meta):
            return
        if isinstance(action, EndGame):
            if self.finished:
                raise GameError("the game is already over")
            self.end_game("manually_ended")
            return
        if self.finished:
            raise GameError("the game is over")
        entity = self.entity(action)
        if isinstance(self.round, StockRound):
            # Noted first, as the site notes it before the turn moves on; a refused action
            # leaves nothing, the game being restored as a whole.
            self.programs.note_action(self, entity, action)
        self.round.process(self, entity, action)
        self.settle()

    def _interrupt_pending(self) -> bool:
        interrupts = {type(step) for step in self.interrupt_steps()}
        return any(type(step) in interrupts and step.blocking and step.active(self, self.round)
                   and step.waiting(self, self.round) for step in self.round.steps)

    def settle(self) -> None:
        """Advance past steps and rounds that need no decision."""
        for _ in range(10_000):
            if self.finished:
                return
            if self.round.advance(self):
                continue
            if self.round.finished:
                if not self.round.wound_up:
                    self.round.wound_up = True
                    self.round.finish(self)
                if self.finished:
                    return
                if self.ending:
                    self.end_game(self.ending)
                    return
                # What the round's end did may ask for a decision first (a discard after an
                # export over the train limit): the round stays until it is made.
                if self._interrupt_pending():
                    return
                following = self.next_round()
                if following is None or self.finished:
                    return
                self.round = following
                self.programs.round_changed(self.cursor.kind(self.ROUNDS), self.PROGRAM_RULES.merger_kinds)
                self.round.start(self)
                continue
            if self.ending:
                self.end_game(self.ending)
            return
        raise RuntimeError("the game did not settle")
