"""The Club's problems (zadaci, issue 41): decisions of finished deals where one word is
clearly best with every hand open, mined by the replay's analysis and rated as lichess
rates its puzzles.

``mining.py`` is the pure work (a record's deal and its analysis in, the problems out),
run in the analysis' worker processes by ``feed.py`` as parties end (and by the backfill
command over the archive); ``glicko.py`` is Glicko-2; ``solving.py`` gives a member a
problem near his rating and takes his answer; ``reads.py`` the history, the streak and
the problem of the day; ``moderation.py`` the flags and an admin's hiding; ``router.py``
the API (``/api/zadaci``). No module here names a game: the game's descriptor's
``problems`` (app/games/problems.py) says what a clear problem is and puts it in words.
"""
