-- 0007: players away (/auto away): until when the bot passes for a player where passing is the
-- only sensible choice, and the seqs of the passes it made for them that they have not yet been
-- told of (a JSON list). Kept in the store so that every process serving the game passes for
-- them, and a restart keeps it.

CREATE TABLE away (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    player_id   NOT NULL,  -- untyped like seats.player_id, so the foreign key matches
    until_at    INTEGER NOT NULL,
    passes      TEXT    NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id, player_id),
    FOREIGN KEY (game_id, player_id) REFERENCES seats (game_id, player_id)
);
