-- 0002: reminder state (rebuilt into the scheduler at start-up) and lookup indexes the bot
-- needs for "which game lives in this thread" and "active games of this guild".

CREATE TABLE reminder_state (
    game_id         BIGINT  NOT NULL,
    player_id       JSONB   NOT NULL,
    last_ping_at    BIGINT,
    ping_count      INTEGER NOT NULL DEFAULT 0 CHECK (ping_count >= 0),
    PRIMARY KEY (game_id, player_id),
    FOREIGN KEY (game_id, player_id) REFERENCES seats (game_id, player_id)
);

CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_by_guild_status ON games (guild_id, status);
