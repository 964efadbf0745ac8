"""The mechanics of the 1817 family (1817, 18USA, ...) as title-neutral core modules.

API note — what a title composes and calls
------------------------------------------
* Subclass `game.Family1817Game` (a `BaseGame`): short sales on, discarded trains to the open
  market, short certificates numbered from 10 (as on the site), the family's hooks with 1817's
  defaults: `max_loans`, `interest_tiers` (the Bank of New York rows), `company_size`,
  `max_player_percent_of`, `has_a_train`, `scrappable_trains`, `shorts_forbidden`,
  `half_withheld_of`, `after_loan` (buys the stations in `tokens_owed`), `player_value` (16).
  List `game.FAMILY_OPTIONS` in the title's `RULE_OPTIONS`: each is the site's reading where it
  differs from the printed rules, on for imported logs.
* Stock rounds (11): `stock.FamilyStockRound` with `stock.FamilyStockStep()` (sell, short, buy
  closing a short, act for a company: `take_loan`, buy its own shares, `scrap_train`). A title
  adds its way of starting companies by subclassing the step and adds a company it starts this
  round to `round.started`; it sets `game.tokens_owed[corp]` for stations not yet paid for.
  `Family1817Game.end_of_stock_round` makes the 11.8 moves.
* Operating rounds (9, 12.5, 12.8, 12.9): `operating.FamilyOperatingRound` with
  `operating.LoanStep()` first, the title's track/station/route steps,
  `operating.FamilyDividendStep()`, the title's buy-train step, `operating.InterestStep()`,
  `operating.RepayStep()`.
* The market's areas: `market.area`, `market.liquidate`, `market.price_at_most`.
* Actions (`actions.py`): take_loan, payoff_loan, scrap_train, short, convert, merge,
  remove_token, assign.

Requests to the 18USA title (helper "usa-game"): none yet.
"""
