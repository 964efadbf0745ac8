-- 0004: when each game's next reminder is due, as last planned by the bot. At start-up the
-- scheduler is rebuilt from these times alone, so no game has to be replayed before the bot
-- connects; a game is loaded only when a reminder fires or someone touches it.

CREATE TABLE reminder_due (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id),
    due_at      BIGINT NOT NULL
);
