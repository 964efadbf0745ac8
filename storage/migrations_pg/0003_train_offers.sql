-- 0003: a purchase of another president's train waits for that president's consent
-- (rule 12.6). The pending offer is kept here so it survives a restart of the bot; at most
-- one per game, and it only counts while the game is still at the seq it was made at.

CREATE TABLE train_offers (
    game_id             BIGINT PRIMARY KEY REFERENCES games (id),
    seq                 INTEGER NOT NULL CHECK (seq >= 0),
    action              JSON   NOT NULL,  -- the buy_train action committed on acceptance
    buyer_user_id       BIGINT,           -- who asked: the move is theirs once accepted
    seller_player_id    JSONB  NOT NULL,
    created_at          BIGINT NOT NULL,
    FOREIGN KEY (game_id, seller_player_id) REFERENCES seats (game_id, player_id)
);
