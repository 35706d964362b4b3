"""The kiosk's side of the club sync (issue 22, docs/club.md "The kiosk's side").

The journal's finished matches and new players are uploaded to the club's hub (``outbox``, ``client``,
``sync``), off the frame thread (``worker``), with back-off while the hub is away; what the hub
acknowledged or refused is recorded in the journal, so a restart resumes where it stopped. The club's
roster is downloaded into the journal (``roster``). ``python -m kiosk.club sync`` runs one round.
"""
