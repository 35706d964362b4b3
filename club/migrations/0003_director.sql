-- Version 3: the club director (one password, hashed), the director's sessions, the login's failures
-- (for the lockout), and revoked kiosk tokens.
CREATE TABLE director (
    singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    password_hash  text NOT NULL,
    set_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE director_sessions (
    token_sha256  text PRIMARY KEY,
    csrf          text NOT NULL,
    created       double precision NOT NULL,
    expires       double precision NOT NULL
);

-- one row: the failures in a row since the last good login, and until when the login is locked
CREATE TABLE director_lockout (
    singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    failures      integer NOT NULL DEFAULT 0,
    locked_until  double precision NOT NULL DEFAULT 0
);
INSERT INTO director_lockout VALUES (true, 0, 0);

ALTER TABLE kiosks ADD COLUMN revoked_at timestamptz;
