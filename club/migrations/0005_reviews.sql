-- Version 5: the post-match review of every verified match (issue 24 #5), computed by the review
-- worker (python -m club review-worker). One row per match in reviews (claimed, done or failed),
-- one per reviewed seat in seat_reviews (not the computer's seat). Nothing here depends on version 4.
CREATE TABLE reviews (
    match           uuid PRIMARY KEY REFERENCES matches (uuid),
    status          text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    lease_until     timestamptz NOT NULL,
    samples         integer NOT NULL,
    seed            bigint NOT NULL,
    engine_version  text NOT NULL,
    cpu_seconds     double precision,
    error           text,
    claimed_at      timestamptz NOT NULL DEFAULT now(),
    reviewed_at     timestamptz
);
CREATE INDEX reviews_running ON reviews (lease_until) WHERE status = 'running';

CREATE TABLE seat_reviews (
    match       uuid NOT NULL REFERENCES reviews (match),
    seat        smallint NOT NULL CHECK (seat IN (0, 1)),
    player      uuid REFERENCES players (uuid),
    decisions   integer NOT NULL,
    mean_loss   double precision NOT NULL,
    good        integer NOT NULL,
    inaccuracy  integer NOT NULL,
    mistake     integer NOT NULL,
    blunder     integer NOT NULL,
    result      integer,
    luck        double precision,
    adjusted    double precision,
    flagged     jsonb NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE INDEX seat_reviews_player ON seat_reviews (player);
