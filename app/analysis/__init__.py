"""The replay's analysis: every decision of a finished deal valued with the cards open.

``deal.py`` is the pure computation (a record and a deal index in, the rows out), run in
a worker process by ``workers.py``; ``service.py`` checks the request, caches the rows in
the database (``deal_analyses``) and starts at most one computation per deal;
``router.py`` is the API. Each game values its decisions itself
(``app/ai/<game>/analysis.py``, named by its descriptor's ``analysis``).
"""
