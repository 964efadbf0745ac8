"""The Discord front door: the bot client, its cogs (one per concern) and its buttons.

Cogs stay thin: they read options, find the game of the thread, and hand the work to the
Moderator (``bot.moderator``); ``respond`` turns the Moderator's replies into messages.
"""
