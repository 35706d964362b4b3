"""The kiosk's storage: one SQLite file holding the match journal, the players and their ratings.

``database`` (the file, transactions, migrations), ``schema`` (the journal's tables), ``errors``,
``records`` (rows and checksums), ``journal`` (matches and their rows), ``recorder`` (engine
actions into rows), ``resume`` (an unfinished match after a restart), ``stall`` (the frame loop's
heartbeat), ``players`` and ``ratings`` (named players, Glicko-2), ``audit`` (export and replay).
"""
