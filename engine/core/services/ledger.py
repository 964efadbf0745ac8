"""The share ledger: who holds which certificate of which company, in the order received.

Companies may have 2, 5 or 10 shares (a share is 50%, 20% or 10%), and a title may allow
short positions: a short sale makes a pair of certificates, an ordinary one for the market and
a negative one for the short seller, so that a holding (the sum of a holder's percents) can
fall below zero while the certificates of the company still add up to 100%.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.entities import Corporation, Holder, Share
from engine.errors import GameError


@dataclass
class ShareLedger:
    """Who holds which certificates: players, treasuries, the market, and short positions."""

    negative_holdings: bool = False
    # The lowest index a short sale's certificates take (the site numbers them from 10 on).
    first_short_index: int = 0
    moves: int = 0  # a running count, so holders list certificates in the order received

    def create(self, corporation: Corporation, shares: int, president_shares: int = 2) -> None:
        """Certificates of a company of `shares` shares, in its treasury: CORP_0 the president's
        (worth `president_shares` shares), then the ordinary ones."""
        if shares not in (1, 2, 4, 5, 10, 20) or not 1 <= president_shares <= shares:
            raise ValueError(f"a company of {shares} shares with a president's certificate of "
                             f"{president_shares} cannot be made")
        unit = 100 // shares
        corporation.share_percent = unit
        corporation.shares = [Share(f"{corporation.id}_0", corporation, unit * president_shares, True,
                                    corporation)]
        corporation.shares += [Share(f"{corporation.id}_{index}", corporation, unit, False, corporation)
                               for index in range(1, shares - president_shares + 1)]

    def move(self, share: Share, target: Holder) -> None:
        """Give a certificate to a new holder."""
        share.owner = target
        self.moves += 1
        share.received = self.moves

    def holding_order(self, corporation: Corporation, holder: Holder) -> list[Share]:
        return sorted(corporation.shares_of(holder), key=lambda share: share.received)

    def percent_of(self, corporation: Corporation, holder: Holder) -> int:
        """A holder's net percent of a company; negative for a short position."""
        return corporation.percent_owned_by(holder)

    def short(self, corporation: Corporation, seller: Holder, market: Holder) -> Share:
        """A short sale: a new ordinary certificate goes to the market and the seller holds a
        negative one. Returns the market's certificate."""
        if not self.negative_holdings:
            raise GameError("shares cannot be sold short in this game")
        index = self.pair_index(corporation)
        unit = corporation.share_percent
        sold = Share(f"{corporation.id}_{index}", corporation, unit, False, corporation)
        owed = Share(f"{corporation.id}_{index + 1}", corporation, -unit, False, corporation)
        corporation.shares += [sold, owed]
        self.move(sold, market)
        self.move(owed, seller)
        return sold

    def pair_index(self, corporation: Corporation) -> int:
        """The first index of a new pair of certificates (the other takes the next): after the
        company's certificates and from `first_short_index` on, as on the site."""
        return max(self.first_short_index,
                   1 + max(int(share.id.rsplit("_", 1)[1]) for share in corporation.shares))

    def close_short(self, corporation: Corporation, holder: Holder, share: Share) -> None:
        """A short seller gives back `share` (bought by them) against one negative certificate."""
        owed = next((s for s in self.holding_order(corporation, holder) if s.percent < 0), None)
        if owed is None or share.owner is not holder or share.percent != -owed.percent:
            raise GameError(f"{holder.name} has no short position in {corporation.id} to close")
        corporation.shares.remove(owed)
        corporation.shares.remove(share)
