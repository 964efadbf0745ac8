"""Discord's clocks on an interaction.

The first answer (the callback: a message, a defer, an update, autocomplete choices or a
modal) must reach Discord within 3 seconds of the interaction being sent; after that Discord
answers 404 "Unknown interaction" (10062) and the user sees "The application did not respond"
(or, for autocomplete, "Loading options failed"). The interaction's token then works for
follow-ups and edits for 15 minutes; later calls get 401 "Invalid Webhook Token" (50027).

The fake keeps its own clock (``FakeDiscord.now``) so tests can jump past the 15 minutes
with ``FakeDiscord.advance_clock`` instead of waiting.
"""

from __future__ import annotations

from .models import InteractionRecord
from .validation import DiscordError

RESPONSE_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0
NO_RESPONSE = "The application did not respond"
NO_CHOICES = "Loading options failed"
AUTOCOMPLETE = 4


def what_the_user_sees(record: InteractionRecord) -> str:
    return NO_CHOICES if record.type == AUTOCOMPLETE else NO_RESPONSE


def describe(record: InteractionRecord) -> str:
    """The interaction as a person would name it: /lay, a click on sm:1:4:pass, ..."""
    data = record.data
    if "custom_id" in data:
        return f"{'a modal' if record.type == 5 else 'a click on'} {data['custom_id']!r}"
    words = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(str(options[0]["name"]))
        options = options[0].get("options") or []
    kind = "autocomplete of " if record.type == AUTOCOMPLETE else ""
    return f"{kind}/{' '.join(words)} by {record.user.username}"


def late_answer(record: InteractionRecord, now: float, deadline: float) -> str | None:
    """Why an initial answer sent ``now`` is refused, or None if it is in time."""
    elapsed = now - record.sent_at
    if record.failure is not None or elapsed > deadline:
        return (f"{describe(record)} was answered after {elapsed:.2f} s; Discord allows {deadline:g} s, "
                f"so the user saw \"{what_the_user_sees(record)}\"")
    return None


def unanswered(record: InteractionRecord, deadline: float) -> str:
    return (f"{describe(record)} got no answer within {deadline:g} s: the user sees "
            f"\"{what_the_user_sees(record)}\"")


def check_token(record: InteractionRecord, now: float, lifetime: float) -> None:
    """Follow-ups and edits need a token younger than 15 minutes."""
    age = now - record.sent_at
    if age > lifetime:
        raise DiscordError(401, 50027, f"Invalid Webhook Token (the interaction token expired: {age:.0f} s "
                                       f"old, tokens last {lifetime:g} s)")
