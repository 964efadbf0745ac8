-- 0005: what several bot processes on one store need.
-- games.change_no: the file-wide number of the game's last change; a process polls for
-- numbers above the last it saw to learn which games another process changed.
-- reminder_due.claimed_by / claim_until: which process has taken a due reminder, until when,
-- so each reminder is sent by one process only (and by another if that one dies).

ALTER TABLE games ADD COLUMN change_no INTEGER NOT NULL DEFAULT 0;
UPDATE games SET change_no = id;
CREATE INDEX games_by_change_no ON games (change_no);

ALTER TABLE reminder_due ADD COLUMN claimed_by TEXT;
ALTER TABLE reminder_due ADD COLUMN claim_until INTEGER;
CREATE INDEX reminder_due_by_due_at ON reminder_due (due_at);
