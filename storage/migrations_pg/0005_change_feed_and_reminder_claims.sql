-- 0005: what several bot processes on one database need.
-- games.change_no: a store-wide number given to each change of a game (SQLite's change feed
-- polls it; here it also gives every write one UPDATE of the game row to notify on).
-- Every committed change of a game row is announced on the channel stationmaster_games with
-- the game id as payload (NOTIFY is delivered at commit, once per game per transaction).
-- reminder_due.claimed_by / claim_until: which process has taken a due reminder, until when,
-- so each reminder is sent by one process only (and by another if that one dies).

CREATE SEQUENCE games_change_no_seq AS BIGINT;
ALTER TABLE games ADD COLUMN change_no BIGINT NOT NULL DEFAULT nextval('games_change_no_seq');
CREATE INDEX games_by_change_no ON games (change_no);

CREATE FUNCTION games_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('stationmaster_games', NEW.id::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER games_notify_change AFTER INSERT OR UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION games_notify_change();

ALTER TABLE reminder_due
    ADD COLUMN claimed_by TEXT,
    ADD COLUMN claim_until BIGINT;
CREATE INDEX reminder_due_by_due_at ON reminder_due (due_at);
