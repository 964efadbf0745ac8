"""The mechanics of the 1817 family (1817, 18USA, ...) as title-neutral core modules.

API note — what a title composes and calls
------------------------------------------
Base class: subclass `game.Family1817Game` (a `BaseGame`). It turns short sales on, sends
discarded trains to the open market, numbers short certificates from 10 (as the site does),
uses the family's interrupting steps (token reduction, discard, the family cash crisis, pending
stations) and has the family's rules as hooks with 1817's defaults:
`max_loans`, `interest_tiers` (the Bank of New York's rows, cheapest first), `company_size`,
`max_player_percent_of`, `has_a_train` (a Pullman is not one), `scrappable_trains` (what
`scrap_train` may scrap, for how much), `shorts_forbidden` (phase 8), `half_withheld_of`,
`conversion_tokens`, `starting_tokens`, `retire` (a merged or sold company made ready to start
again), `after_loan` (buys the stations in `tokens_owed`), `after_bankruptcy` (the certificate
limit), `player_value` (16). Put `game.FAMILY_OPTIONS` in the title's `RULE_OPTIONS`: each is the
site's reading where it differs from the printed rules; turn them on for imported logs.
`ACQUISITION_DIVIDEND_PRICE`, `TOKEN_PRICE`, `MAX_TOKENS`, `NEXT_SIZE` are class constants.

Rounds (kinds are the title's; the classes and steps are these):
* stock: `stock.FamilyStockRound` with `stock.FamilyStockStep()` — sell, short, buy (closing a
  short), or act for a company (`take_loan`, buy its own shares from the market, `scrap_train`).
  Add the title's way of starting companies by subclassing the step (extend `PLAYER_ACTIONS`
  and `handlers`); put a company started this round in `round.started` and stations it still
  owes in `game.tokens_owed`. The round's start releases the interest rate and has the bank
  close the market's shorts; `Family1817Game.end_of_stock_round` makes the 11.8 moves.
* operating: `operating.FamilyOperatingRound` with `operating.LoanStep()` first, then the
  title's track, station and route steps, `operating.FamilyDividendStep()`, the title's
  buy-train step, `operating.InterestStep()`, `operating.RepayStep()`. The round fixes the rate
  at its start and liquidates a company that ends its turn without a train.
* merger: `merger_round.MergerRound` with `PostConversionStep()`, `PostConversionLoansStep()`,
  `ConversionStep()` (14.1).
* acquisition: `acquisition_round.AcquisitionRound` with `AcquisitionStep()` (14.2).
  Put "merger" and "acquisition" after "operating" in each `OperatingSet`.

Functions: `loans.take_loan/payoff_loan/pay_interest`, `market.area/liquidate/price_at_most/
dividend_steps`, `shorts.sell_short/close_short`, `sizes.convert/merge/resize`,
`cash_crisis.go_bankrupt`, `Family1817Game.demand` (a payment that may open a cash crisis).
The interest rate to show: `game.loans.current_rate()`.

Actions (`actions.py`): take_loan, payoff_loan, scrap_train, short, convert, merge,
remove_token, assign (usable by a title's own steps too: contributions, abilities).

Requests to the 18USA title (helper "usa-game"): import the family's action classes from
`engine.core.family1817.actions` instead of defining them (the registry refuses a second class
for one action type, so two definitions fail at the import of the second); the IPO (bid, home station, size choice,
contributions) is the title's, on top of `FamilyStockStep`; the Pullman and the buy-train step's
buying power with loans are the title's too.
"""
