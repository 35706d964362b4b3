"""Club events, the pure core: round-robin (Berger tables), Swiss (FIDE Dutch) and arena pairings,
arena scoring, and standings with published tiebreaks. No database, no web: dataclasses in and out.
See docs/events.md.
"""
