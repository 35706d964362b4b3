"""The club hub: one roster, one ladder and one match archive for every table of a club (issue 22).

A FastAPI service over PostgreSQL (psycopg 3 and a connection pool). Kiosks upload their finished
matches (the journal's rows, header and claimed result) and new players; the hub replays every match
with ``engine`` and believes only what replays; club ratings are Glicko-2 over the verified matches
in one canonical order. Never imports pygame. See docs/club.md.

Modules, one job each: ``errors`` (the hub's errors), ``database`` (pool, migrations), ``tokens``
(kiosk tokens), ``wire`` (the upload's shape and limits), ``verify`` (replaying an uploaded match),
``ratings`` (club ratings as a pure function), ``standings`` (the stored ratings, under the merges),
``ingest`` (storing an upload), ``queries`` (the read side), ``players`` (the director's renames and
merges), ``backup`` (pg_dump), ``app`` (the HTTP API), ``cli`` and ``cli_players`` (``python -m
club``); for trying and measuring: ``localdb`` and ``devhub`` (``make hub``), ``hubproc`` (a serve
process), ``fleet`` (simulated kiosks), ``bench`` (``python -m club.bench``).
"""
