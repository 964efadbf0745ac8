"""A command given an option with nothing in it (the terminal takes `corporation:` followed by
nothing; the terminal and Discord refuse an option left out before the bot sees it) says which
option is missing and what it can be, and nothing is guessed, on positions of the generated
18Texas game s201 (found by a near-miss sweep: each logged move typed with one option emptied).
A number left out (a caller other than the two front ends) is asked for the same way.

Before: "that is not up for auction", "that cannot be started now", "you cannot buy a share of
that now", "you cannot sell that now", "no station can go in that city", "no tile can be laid
on that hex", "SAA has no train of that name to discard", "say the dividend"; "SP can start at
$70, ..., not None" and "SAA can issue 1 ($50), ... share(s), not None"; and `/train train:
price:50` bought T&P's 3-1 for SSW, the first train another company offered.
"""

from __future__ import annotations

import io
from pathlib import Path

from bot_helpers import imported, open_moderator, president_of

from bot.console import Console
from bot.dispatch import handle
from bot.model import Actor, Command

GENERATED = Path(__file__).resolve().parents[1] / "data" / "generated"
S201 = GENERATED / "18Texas" / "randplay_18Texas_4p_s201.json"
S8602 = GENERATED / "18USA" / "randplay_18USA_6p_s8602.json"
S8405 = GENERATED / "18USA" / "randplay_18USA_4p_s8405.json"

# (moves before, who types, command, the refusal)
CASES = [
    (0, "P1", Command("bid", {"company": "", "price": 50}),
     "/bid needs what to bid on (company:); you can bid on BBBCRC (from $50), GRRRC (from $80), JG (from $200), "
     "IGN (from $210)."),
    (297, "P1", Command("par", {"corporation": "", "price": 100}), "/par needs a company (corporation:); you can start MP, SP."),
    (297, "P1", Command("par", {"corporation": "SP"}),
     "/par needs a par price (price:); SP can start at $70, $75, $82, $90, $100."),
    (306, "P2", Command("buy", {"corporation": "", "from": "pool"}),
     "/buy needs a company (corporation:); you can buy MKT ($65), MP ($82), SP ($100), T&P ($100)."),
    (309, "P1", Command("sell", {"corporation": " ", "percent": 20}), "/sell needs a company (corporation:); you can sell MKT, SAA, SSW, T&P."),
    (102, "P3", Command("issue", {}),
     "/issue needs how many shares (count:); SAA can issue 1 ($50), 2 ($100), 3 ($150), 4 ($200) share(s)."),
    (111, "P2", Command("token", {"city": ""}), "/token needs a city (city:); cities you can reach: B11."),
    (87, "P2", Command("lay", {"hex": "", "tile": "6", "rotation": 4}),
     "/lay needs a hex (hex:); hexes you can build on: B11, D11, D13, D7, D9, E12."),
    (270, "P3", Command("dividend", {"kind": ""}),
     "/dividend needs the kind of dividend (kind:); kind can be payout, half, withhold."),
    (291, "P3", Command("discard", {"train": ""}), "/discard needs a train (train:); SAA can discard 3-3, 3-2, 3-0."),
    (210, "P3", Command("train", {"train": "", "price": 50}),
     "/train needs a train (train:); trains for sale: 3-1 from T&P, 4-1 from T&P, 4-2 from MKT, 3-0 from SAA, "
     "3-3 from SAA, 3-2 from SAA."),
    # No new 3-train: T&P and SAA each sell one, so whose is asked (it was T&P's, the first offered).
    (210, "P3", Command("train", {"train": "3"}),
     "a 3-train is for sale from T&P (3-1) and SAA (3-0, 3-3, 3-2); say which by its id (train:3-1) and the "
     "price (price:, $1 to $346)."),
]


async def test_a_missing_option_is_named_with_what_it_can_be(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "missing.db")
    try:
        for before, name, command, said in CASES:
            game = await imported(moderator, S201, before)
            reply = await handle(moderator, game, Actor(user_id=None, name=name), command)
            assert not reply.ok and reply.text.split("\nNow:")[0] == said, (command, reply.text)
            assert await repo.last_seq(game) == before
        # as typed at the terminal
        game = await imported(moderator, S201, 210)
        out = io.StringIO()
        await Console(moderator, game, None, out).line("@P3 /train train: price:50")
        assert out.getvalue().startswith("error: /train needs a train (train:); trains for sale: 3-1 from T&P"), \
            out.getvalue()
        assert await repo.last_seq(game) == 210
    finally:
        await repo.close()


async def test_a_train_named_by_its_id_is_that_train(tmp_path: Path) -> None:
    """Asked which 3-train, the player names T&P's by its id: only its price is asked for then."""
    repo, moderator = await open_moderator(tmp_path / "one.db")
    try:
        game = await imported(moderator, S201, 210)
        reply = await handle(moderator, game, Actor(user_id=None, name="P3"), Command("train", {"train": "3-1"}))
        assert not reply.ok and reply.text.split("\nNow:")[0] == "say the price for 3-1 from T&P: $1 to $346.", \
            reply.text
    finally:
        await repo.close()


async def test_an_empty_company_is_no_company(tmp_path: Path) -> None:
    """`/short corporation:` in 18USA s8602 before 540, where P5 can short nothing: why not, and
    what P5 can do (was "there is no company ''; companies: ATSF, B&O, ...", the engine's answer
    to a short of the company '')."""
    repo, moderator = await open_moderator(tmp_path / "empty.db")
    try:
        game = await imported(moderator, S8602, 540)
        reply = await handle(moderator, game, Actor(user_id=None, name="P5"), Command("short", {"corporation": ""}))
        assert not reply.ok and reply.text.split("\nNow:")[0] == (
            "/short is not possible now: there is nothing you can /short now; what you can do now: /bid, /buy, "
            "/pass, /sell."), reply.text
        assert await repo.last_seq(game) == 540
    finally:
        await repo.close()


async def test_a_train_name_the_bank_sells_is_the_bank_s(tmp_path: Path) -> None:
    """18USA s8405 before 390: N&W asks for a 2-train; the open market sells 2-0 for $100 and five
    companies sell theirs. The name means the bank's train at its price: nobody is asked which."""
    repo, moderator = await open_moderator(tmp_path / "bank.db")
    try:
        game = await imported(moderator, S8405, 390)
        president = await president_of(moderator, game, "N&W")
        reply = await handle(moderator, game, president, Command("train", {"train": "2"}))
        assert reply.ok, reply.text
        session = await moderator.sessions.get(game)
        last = session.actions[-1].action
        assert (last["type"], last["entity"], last["train"], last["price"]) == ("buy_train", "N&W", "2-0", 100)
    finally:
        await repo.close()
