-- Version 6: club nights by hand (issue 25): a pairing the director scores without a game (a forfeit:
-- a win for one seat, or nobody scores), the half-point byes Swiss players ask for, and arenas'
-- tiebreaks without the round-based ones (Buchholz, Sonneborn-Berger, direct encounter).
ALTER TABLE event_pairings DROP CONSTRAINT event_pairings_state_check;
ALTER TABLE event_pairings ADD CONSTRAINT event_pairings_state_check
    CHECK (state IN ('waiting', 'offered', 'acknowledged', 'played', 'aborted', 'moved', 'cancelled', 'bye', 'forfeit'));
ALTER TABLE event_pairings
    ADD COLUMN forfeit_winner smallint CHECK (forfeit_winner IN (0, 1)),  -- a forfeit: the seat that won it, null: nobody
    ADD COLUMN half_bye boolean NOT NULL DEFAULT false,                 -- a bye the player asked for: half a win
    ADD CONSTRAINT event_pairings_forfeit_check CHECK (forfeit_winner IS NULL OR state = 'forfeit'),
    ADD CONSTRAINT event_pairings_half_bye_check CHECK (NOT half_bye OR state = 'bye');

-- a Swiss player's requested (half-point) bye, before its round is paired: one per player and event
CREATE TABLE event_bye_requests (
    event         uuid NOT NULL REFERENCES events(uuid),
    player        uuid NOT NULL REFERENCES players(uuid),
    round         integer NOT NULL CHECK (round >= 1),
    requested_at  double precision NOT NULL,
    why           text,
    PRIMARY KEY (event, player)
);

-- an arena compares no opponents met in rounds: its tiebreaks become performance and what else it had
UPDATE events SET tiebreaks = ARRAY['performance'] || ARRAY(
        SELECT t FROM unnest(tiebreaks) WITH ORDINALITY AS x(t, n)
        WHERE t NOT IN ('buchholz', 'sonneborn-berger', 'direct-encounter', 'performance') ORDER BY n)
    WHERE format = 'arena' AND tiebreaks && ARRAY['buchholz', 'sonneborn-berger', 'direct-encounter'];

-- players joining from their phones: the code shown on the director's screen and the TV (null: closed)
ALTER TABLE events ADD COLUMN join_code text CHECK (join_code ~ '^[0-9]{6}$');
