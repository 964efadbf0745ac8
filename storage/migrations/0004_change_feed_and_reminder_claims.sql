-- 0004: what several bot processes on one store need.
-- games.change_no: the file-wide number of the game's last change; a process polls for
-- numbers above the last it saw to learn which games another process changed.
-- reminder_state.due_at / claimed_by / claim_until: the next ping's due time, and which
-- process has taken it until when, so each reminder is sent by one process only.

ALTER TABLE games ADD COLUMN change_no INTEGER NOT NULL DEFAULT 0;
UPDATE games SET change_no = id;
CREATE INDEX games_by_change_no ON games (change_no);

ALTER TABLE reminder_state ADD COLUMN due_at INTEGER;
ALTER TABLE reminder_state ADD COLUMN claimed_by TEXT;
ALTER TABLE reminder_state ADD COLUMN claim_until INTEGER;
CREATE INDEX reminders_by_due_at ON reminder_state (due_at) WHERE due_at IS NOT NULL;
