"""``cardcore play``: full-screen terminal tables against the built-in AIs (Textual).

One module per game (``three_thirteen``, ``spite_malice``, ``nerts``), each with a Textual-free
*session* class (engine state, AI seats, your moves) and an ``App`` that draws the table;
``widgets`` holds the shared screens, ``common`` the seeds, AI levels and replay files. Textual
is imported only by the app modules, never by ``import cardcore.play``.
"""
