"""`/game privates`: the private companies of a game in words, and what each one does.

18USA deals a different dozen of its thirty privates to each game, so players ask what one does
far more often than the table picture, which names them, can answer. The words are the title's
own (`Company.text`); which companies are in play is the engine's (`companies_in_play`).
"""

from __future__ import annotations

from engine.core.entities import Company
from engine.core.game import BaseGame
from untrusted.quote import quoted

MOST_CHOICES = 25  # Discord's autocomplete limit


def _terms(company: Company) -> str:
    """Face value and income, as the table gives them."""
    pays = f", pays ${company.revenue}" if company.revenue else ""
    return f"${company.value}{pays}" if company.value else ""


def _holder(state: BaseGame, company: Company) -> str:
    if company.closed:
        return "closed"
    return f"held by {state.describe(company.owner)}" if company.owner is not None else "not bought yet"


def find_company(state: BaseGame, typed: str) -> Company | None:
    """The company a player named: its id (P17) or its name, in any case."""
    wanted = typed.strip().casefold()
    if not wanted:
        return None
    for company in state.companies.values():
        if wanted in (company.id.casefold(), company.name.casefold()):
            return company
    starting = [c for c in state.companies.values() if c.name.casefold().startswith(wanted)]
    return starting[0] if len(starting) == 1 else None


def company_text(state: BaseGame, company: Company) -> str:
    """One company whole: name, terms, holder and what it does; a closed one is said to be
    closed before its rules text, which speaks of it as open."""
    does = company.text or "(its title gives no description)"
    if company.closed:
        terms = f" ({_terms(company)})" if _terms(company) else ""
        return f"{company.id} {company.name}{terms}: closed, so it pays nothing and its power is gone. While open: {does}"
    about = ", ".join(part for part in (_terms(company), _holder(state, company)) if part)
    return f"{company.id} {company.name} ({about}): {does}"


def privates_text(state: BaseGame) -> str:
    """Every private in play, a line each, then the ones that have closed."""
    listed = state.companies_in_play()
    lines = ["Private companies (/game privates company:ID says what one does):"]
    lines += [f"{c.id} {c.name}: {', '.join(p for p in (_terms(c), _holder(state, c)) if p)}" for c in listed]
    if not listed:
        lines = ["No private company is in play."]
    closed = [c for c in state.companies.values() if c.closed and c.value]
    if closed:
        lines.append("Closed: " + ", ".join(f"{c.id} {c.name}" for c in closed) + ".")
    return "\n".join(lines)


def unknown_company(state: BaseGame, typed: str) -> str:
    """The refusal for a name that is no company of this game, with the ones it has."""
    known = ", ".join(c.id for c in state.companies_in_play()) or "none"
    return f"No private company of this game is called {quoted(typed)}. Its private companies: {known}."


def company_choices(state: BaseGame, typed: str) -> list[tuple[str, str]]:
    """(label, id) suggestions for a company option: those in play first, then closed ones."""
    wanted = typed.strip().casefold()
    shown = [*state.companies_in_play(), *(c for c in state.companies.values() if c.closed and c.value)]
    return [(f"{c.id} {c.name}"[:100], c.id) for c in shown
            if wanted in c.id.casefold() or wanted in c.name.casefold()][:MOST_CHOICES]
