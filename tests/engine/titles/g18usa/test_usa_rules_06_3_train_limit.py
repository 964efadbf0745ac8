"""18USA rule 6.3 at a phase change: obsolete trains do not count toward the train limit, and a
company pushed over it by the export at the end of an operating round discards before the round
ends (the site's round is still the operating round while it decides)."""

from __future__ import annotations

from usa_tracecheck import position_in as position

from engine.legal import legal_moves


def test_an_export_over_the_limit_is_discarded_before_the_operating_round_ends() -> None:
    # s8603: WP's last pass ends the round; the export starts phase 6 (limit 2); MKT holds a
    # 4-train, a Pullman and a 5-train.
    game = position("s8603", 894)
    assert game.phase.name == "6" and game.round.name == "Operating Round"
    assert [(m["type"], m["entity"]) for m in legal_moves(game)] == [("discard_train", "MKT")]
    game.apply({"type": "discard_train", "entity": "MKT", "entity_type": "corporation", "train": "P-0"})
    assert game.round.name == "Merger and Conversion Round"


def test_obsolete_trains_do_not_count_toward_the_limit() -> None:
    # s8502: the same export; NP holds a 3+ (obsolete from phase 6), a Pullman and a 4-train.
    game = position("s8502", 876)
    np_trains = sorted(t.name for t in game.corporations["NP"].trains)
    assert game.phase.name == "6" and np_trains == ["3+", "4", "P"]
    assert game.counted_trains(game.corporations["NP"]) == 2
    assert game.round.name == "Merger and Conversion Round"
    assert not any(m["type"] == "discard_train" for m in legal_moves(game))
