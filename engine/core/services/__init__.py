"""Services a game composes and a title configures: the bank, the train depot, the share
ledger, the stock market and loans. Each holds one part of the position and its own rules of
bookkeeping; what a title's rules decide goes through the game's hooks."""
