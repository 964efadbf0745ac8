-- 0001: games, their seats, their append-only action log, and per-game settings.
-- Times are Unix seconds (INTEGER), like the created_at of 18xx.games actions.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    title           TEXT    NOT NULL,
    seed            INTEGER NOT NULL,
    -- JSON list of optional rule names (18xx.games settings.optional_rules)
    options         TEXT    NOT NULL DEFAULT '[]'
                    CHECK (json_valid(options) AND json_type(options) = 'array'),
    status          TEXT    NOT NULL DEFAULT 'setup'
                    CHECK (status IN ('setup', 'active', 'paused', 'finished', 'abandoned')),
    guild_id        INTEGER,
    channel_id      INTEGER,
    thread_id       INTEGER,
    creator_user_id INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);

CREATE TABLE seats (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    seat            INTEGER NOT NULL CHECK (seat >= 1),
    -- The id the engine and the actions use for this player ("entity" of player actions).
    -- Declared without a type on purpose: no type affinity, so an integer id (8923) stays
    -- an integer and a text id ("P1") stays text, and export gives back exactly what came in.
    player_id       NOT NULL CHECK (typeof(player_id) IN ('integer', 'text')),
    discord_user_id INTEGER,
    display_name    TEXT    NOT NULL,
    replaced        INTEGER NOT NULL DEFAULT 0 CHECK (replaced IN (0, 1)),
    left_game       INTEGER NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id)
);

CREATE TABLE actions (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    seq             INTEGER NOT NULL CHECK (seq >= 1),
    -- The 18xx.games action object, stored as received so export returns it unchanged.
    action          TEXT    NOT NULL
                    CHECK (json_valid(action) AND json_type(action) = 'object'),
    actor_user_id   INTEGER,
    created_at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- The log is the truth: the database itself refuses to rewrite or delete it, and refuses a
-- seq that is not exactly the next one, whatever code path tries (the repository checks
-- first and reports a SeqConflict; these triggers are the last line of defence).
CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TRIGGER actions_contiguous_seq BEFORE INSERT ON actions
WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'action seq must be last seq + 1');
END;

CREATE TABLE game_settings (
    game_id                     INTEGER PRIMARY KEY REFERENCES games (id),
    reminder_first_after_hours  REAL    NOT NULL DEFAULT 24 CHECK (reminder_first_after_hours > 0),
    reminder_repeat_hours       REAL    NOT NULL DEFAULT 24 CHECK (reminder_repeat_hours > 0),
    -- Quiet hours [start, end) in the given time zone; NULL start means no quiet hours.
    quiet_start_hour            INTEGER CHECK (quiet_start_hour BETWEEN 0 AND 23),
    quiet_end_hour              INTEGER CHECK (quiet_end_hour BETWEEN 0 AND 23),
    quiet_time_zone             TEXT    NOT NULL DEFAULT 'UTC',
    -- Named policy interpreted by the Moderator; storage keeps it as text (no rules here).
    undo_policy                 TEXT    NOT NULL DEFAULT 'own_last_action'
);
