-- Version 4: club events (issue 25): events with their published rules and match settings, their
-- entrants, their pairings (which table, which seats, what became of it, the verified match that
-- settled it), forbidden pairs, the director's logged actions, and each table's last assignment poll.
CREATE TABLE events (
    uuid            uuid PRIMARY KEY,
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    format          text NOT NULL CHECK (format IN ('arena', 'swiss', 'round-robin')),
    rounds          integer CHECK (rounds BETWEEN 1 AND 30),         -- a Swiss's fixed rounds
    minutes         integer CHECK (minutes BETWEEN 1 AND 1440),      -- an arena's length
    bank_seconds    integer NOT NULL CHECK (bank_seconds BETWEEN 10 AND 3600),
    delay_seconds   integer NOT NULL CHECK (delay_seconds BETWEEN 0 AND 60),
    balances        integer NOT NULL CHECK (balances BETWEEN 10 AND 10000),
    berserk         boolean NOT NULL DEFAULT false,
    tiebreaks       text[] NOT NULL,                                 -- published at creation, in order
    ack_timeout_s   integer NOT NULL CHECK (ack_timeout_s BETWEEN 10 AND 3600),
    auto_advance    boolean NOT NULL DEFAULT true,                   -- pair the next round once results are in
    state           text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'running', 'finished')),
    current_round   integer NOT NULL DEFAULT 0,
    created_at      double precision NOT NULL,
    started_at      double precision,
    ends_at         double precision,                                -- an arena: started_at + minutes
    finished_at     double precision,
    CHECK ((format = 'swiss') = (rounds IS NOT NULL)),
    CHECK ((format = 'arena') = (minutes IS NOT NULL))
);

CREATE TABLE event_entrants (
    event            uuid NOT NULL REFERENCES events(uuid),
    player           uuid NOT NULL REFERENCES players(uuid),
    draw             integer NOT NULL,                    -- the order of entry (a round-robin's numbers)
    rating           double precision NOT NULL,           -- the club rating when they joined
    joined_at        double precision NOT NULL,
    joined_round     integer NOT NULL,
    withdrawn_at     double precision,
    withdrawn_after  integer,                             -- the last round they played (0: none)
    PRIMARY KEY (event, player),
    UNIQUE (event, draw)
);

CREATE TABLE event_pairings (
    uuid             uuid PRIMARY KEY,
    event            uuid NOT NULL REFERENCES events(uuid),
    round            integer,                             -- null in an arena
    board            integer NOT NULL,
    player0          uuid NOT NULL REFERENCES players(uuid),  -- seat 0 (or the player with the bye)
    player1          uuid REFERENCES players(uuid),           -- null for a bye
    state            text NOT NULL CHECK (state IN ('waiting', 'offered', 'acknowledged', 'played', 'aborted',
                                                    'moved', 'cancelled', 'bye')),
    kiosk            uuid REFERENCES kiosks(uuid),        -- the table it was given to
    created_at       double precision NOT NULL,
    offered_at       double precision,
    acknowledge_by   double precision,
    acknowledged_at  double precision,
    finished_at      double precision,
    match            uuid UNIQUE REFERENCES matches(uuid), -- the verified match that settled it: once
    moved_from       uuid REFERENCES event_pairings(uuid),
    avoid_kiosk      uuid REFERENCES kiosks(uuid),        -- a moved pairing goes to another table first
    berserk          boolean[] NOT NULL DEFAULT '{false,false}',
    note             text,
    CHECK ((state = 'bye') = (player1 IS NULL)),
    CHECK (player0 <> player1),
    CHECK (state NOT IN ('offered', 'acknowledged') OR kiosk IS NOT NULL)
);
CREATE INDEX event_pairings_event ON event_pairings(event, round);
CREATE INDEX event_pairings_open ON event_pairings(kiosk) WHERE state IN ('offered', 'acknowledged');

CREATE TABLE event_forbidden (
    event    uuid NOT NULL REFERENCES events(uuid),
    player_a uuid NOT NULL REFERENCES players(uuid),
    player_b uuid NOT NULL REFERENCES players(uuid),
    why      text NOT NULL,
    PRIMARY KEY (event, player_a, player_b),
    CHECK (player_a < player_b)
);

-- every director's action and every decision the hub took for the director to read
CREATE TABLE event_log (
    id        bigserial PRIMARY KEY,
    event     uuid NOT NULL REFERENCES events(uuid),
    at        double precision NOT NULL,
    actor     text NOT NULL,                             -- 'director', 'hub', or the command's user
    action    text NOT NULL,
    pairing   uuid,
    why       text,
    detail    jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX event_log_event ON event_log(event, id);

-- a table's last GET /api/v1/kiosk/assignment (hub clock): a table seen within 60 s can be given a pairing
CREATE TABLE kiosk_presence (
    kiosk      uuid PRIMARY KEY REFERENCES kiosks(uuid),
    last_seen  double precision NOT NULL
);

-- what a match's header said about its event (the upload's optional fields)
ALTER TABLE matches ADD COLUMN event_pairing uuid, ADD COLUMN berserk smallint[];

-- a verified match whose pairing does not fit it is listed for the director with the other conflicts
ALTER TABLE conflicts DROP CONSTRAINT conflicts_kind_check;
ALTER TABLE conflicts ADD CONSTRAINT conflicts_kind_check CHECK (kind IN ('match', 'player', 'event'));
