"""/game privates: which private companies a game has, who holds them, and what each one does, in
the title's own words. On 109372 after 901 moves (eleven open, four closed, and the subsidies the
companies have used up) and on an 18Texas game before its auction; and through the real discord.py client on the fake
Discord, where the answer is for the asker alone and autocomplete offers the game's privates."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator
from fakediscord import FakeDiscord
from test_discord_e2e import WAIT, Table, stationmaster
from usa_script import USA_LOGS

from bot.dispatch import handle
from bot.model import Actor, Command
from engine.titles.g18texas.game import load_data as texas_data
from engine.titles.g18usa.data import load_data as usa_data

FIXTURE = next(path for path in USA_LOGS if path.stem == "109372")
MOVES = 901
ANYONE = Actor(None, "onlooker")  # a look-up needs no seat


def _usa_text(company: str) -> str:
    return next(raw["text"] for raw in usa_data()["entities"]["privates"]["companies"] if raw["id"] == company)


async def test_the_privates_of_a_game_with_their_holders_and_those_closed(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, FIXTURE, MOVES)
        listed = await handle(moderator, game_id, ANYONE, Command("game privates"))
        assert listed.ok and listed.private
        lines = listed.text.splitlines()
        assert lines[0] == "Private companies (/game privates company:ID says what one does):"
        assert lines[1:4] == ["P1 Lehigh Coal Mine Co.: $30, held by PRR", "P2 Fox Bridge Works: $40, held by SR",
                              "P5 Nobel's Blasting Powder: $30, held by N&W"]
        assert "P8 Express Freight Service: $40, held by MP" in lines
        assert len(lines) == 1 + 11 + 1  # the eleven open ones; no subsidy (they have no face value)
        assert lines[-1] == ("Closed: P3 Reece Oil and Gas, P4 Hendrickson Iron, P18 Peabody Coal Company, "
                             "P27 Company Town.")
    finally:
        await repo.close()


async def test_one_private_by_its_id_or_name_says_what_it_does(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, FIXTURE, MOVES)
        for typed in ("P8", "p8", "express freight service", "Express Fr"):
            one = await moderator.privates(game_id, typed)
            assert one.ok and one.private
            assert one.text == f"P8 Express Freight Service ($40, held by MP): {_usa_text('P8')}", (typed, one.text)
        closed = await moderator.privates(game_id, "P27")
        assert closed.text == (f"P27 Company Town ($90): closed, so it pays nothing and its power is gone. "
                               f"While open: {_usa_text('P27')}"), closed.text
        for typed in ("P17", "P", "Bridge"):  # not in this game; not one company; two names start so
            refused = await moderator.privates(game_id, typed)
            assert not refused.ok and refused.text == (
                f"No private company of this game is called {typed!r}. Its private companies: "
                "P1, P2, P5, P8, P11, P15, P16, P21, P22, P24, P30."), refused.text
        offered = await moderator.company_choices(game_id, "bridge")
        assert offered == [("P2 Fox Bridge Works", "P2"), ("P21 Keystone Bridge Co.", "P21"),
                           ("P22 American Bridge Company", "P22")]
        assert [value for _, value in await moderator.company_choices(game_id, "")][-4:] == ["P3", "P4", "P18", "P27"]
    finally:
        await repo.close()


async def test_the_privates_of_an_18texas_game_before_its_auction(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        document = {"title": "18Texas", "seed": 3, "players": [{"id": n, "name": name} for n, name in
                                                               enumerate(("Ann", "Bob", "Cy"), 1)], "actions": []}
        made = await moderator.import_game(Actor(None, "table", True), json.dumps(document))
        assert made.ok, made.text
        listed = await moderator.privates(made.game_id)
        assert "GRRRC Galveston and Red River Railway Company: $80, pays $20, not bought yet" in listed.text
        summary = next(raw["ability"]["summary"] for raw in texas_data()["entities"]["privates"]["companies"]
                       if raw["id"] == "BBBCRC")
        one = await moderator.privates(made.game_id, "bbbcrc")
        assert one.text == f"BBBCRC Buffalo Bayou, Brazos and Colorado Railway Company ($50, pays $10, " \
                           f"not bought yet): {summary}"
    finally:
        await repo.close()


async def test_privates_through_discord_are_for_the_asker_alone(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    table = Table(fake)
    bob = table.users["bob"]
    async with stationmaster(fake, tmp_path / "bot.db") as bot:
        table.bot = bot
        await table.open("18USA", 5)
        offered = await (await fake.autocomplete(bob, "game", "privates", focused="company", value="switch",
                                                 options={}, channel=table.thread)).wait_choices(timeout=WAIT)
        assert offered == [{"name": "P19 Union Switch & Signal", "value": "P19"}]
        one = await table.slash(bob, "game", "privates", company="P19")
        assert one.ephemeral and one.content == f"P19 Union Switch & Signal ($80, not bought yet): {_usa_text('P19')}"
        listed = await table.slash(bob, "game", "privates")
        assert listed.ephemeral and "\nP19 Union Switch & Signal: $80, not bought yet\n" in listed.content
        refused = await table.slash(bob, "game", "privates", company="P17")
        assert refused.ephemeral and refused.content.startswith("No private company of this game is called 'P17'.")
