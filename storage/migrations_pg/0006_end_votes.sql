-- 0006: /game end agreements. A game ends when every seated player agrees in one position;
-- the agreements are kept here (not in one bot process's memory) so that whichever process
-- serves the next /game end counts them, and a restart keeps them. An agreement counts only
-- while the game's log is still at the seq it was given at.

CREATE TABLE end_votes (
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    player_id   JSONB   NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, player_id),
    FOREIGN KEY (game_id, player_id) REFERENCES seats (game_id, player_id)
);
