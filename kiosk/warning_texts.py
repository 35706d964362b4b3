"""Configuration and start-up warnings (and restart messages) in every kiosk language.

The configuration readers (``kiosk/config.py``, ``hardware/config.py``), the hardware ports, the
journal, ``python -m kiosk`` and the restart logic write their warnings as English sentences:
logs, ``python -m kiosk.config --check`` and the tests read those. The screen shows them through
the catalogs: ``warning_text`` finds the message template (an English message id with
``{placeholders}``) that makes exactly that sentence and returns it as a ``Text`` whose
parameters are the key names, line numbers and values as written. Nested phrases (what a value
should be, why a journal cannot be used, ...) are templates of their own and translated too.
A sentence no template makes is shown as it is (English). See docs/i18n.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from kiosk.i18n import N_, PLACEHOLDER, Text


@dataclass(frozen=True)
class Form:
    """One message template and how its parameters are translated.

    ``phrases``: the parameter is always one of these literal message ids (matched as exactly one
    of them, then translated). ``nested``: the parameter is translated when one of these forms
    makes it; with ``required`` the whole form matches only if the parameter does.
    """

    msgid: str
    phrases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    nested: tuple[tuple[str, tuple[Form, ...], bool], ...] = ()


@cache
def _regex(form: Form) -> re.Pattern[str]:
    choices = dict(form.phrases)
    out = []
    for part in re.split(r"(\{[A-Za-z_][A-Za-z0-9_]*\})", form.msgid):
        m = PLACEHOLDER.fullmatch(part)
        if m is None:
            out.append(re.escape(part))
        elif m.group(1) in choices:
            options = sorted(choices[m.group(1)], key=len, reverse=True)
            out.append(f"(?P<{m.group(1)}>" + "|".join(re.escape(o) for o in options) + ")")
        else:
            out.append(f"(?P<{m.group(1)}>.+?)")
    return re.compile("".join(out) + r"\Z", re.S)


def match_forms(forms: tuple[Form, ...], english: str) -> Text | None:
    """The ``Text`` of the first form that makes exactly ``english`` (nested phrases translated)."""
    for form in forms:
        m = _regex(form).match(english)
        if m is None:
            continue
        params: dict[str, Any] = m.groupdict()
        for name, _options in form.phrases:
            params[name] = Text(params[name])
        ok = True
        for name, inner, required in form.nested:
            found = match_forms(inner, params[name])
            if found is not None:
                params[name] = found
            elif required:
                ok = False
                break
        if ok:
            return Text(form.msgid, params)
    return None


# -- what a value should be (kiosk/config.py's `what`, hardware/config.py's `expect`) ----------

EXPECTED = (
    N_('a size like "800x480" or "auto"'),
    N_('"table" or "upright"'),
    N_("true or false"),
    N_("a whole number from 10 to 120"),
    N_("a number of seconds from 1 to 3600"),
    N_("a number of seconds from 0 to 600"),
    N_("a whole number of points from 5 to 10000"),
    N_("one of en, ko, uk, id"),
    N_("a number of seconds from 0.5 to 60"),
    N_("a number of seconds from 10"),
    N_("a number of seconds from 1 to 60"),
    N_("a key name"),
    N_("a device path or pyserial URL"),
    N_("a positive integer"),
    N_("seconds between 0 and 600"),
    N_("one of auto, gpio, mock"),
    N_("milliseconds between 0 and 1000"),
    N_("milliseconds between 10 and 10000"),
)

# -- what follows "key (line N): " ------------------------------------------------------------

GPIO_ERRORS = (Form(N_("no Raspberry Pi GPIO here ({reasons})")),)

KEYED = (
    # kiosk/config.py
    Form(N_("[{section}] must be a table of settings")),
    Form(N_("unknown setting (known: {known}); ignored")),
    Form(N_("unknown section (known: {known}); ignored")),
    Form(N_("{value} is not {expected}; using {default}"), phrases=(("expected", EXPECTED),)),
    # hardware/config.py
    Form(N_("must be a table, not {type}; using defaults")),
    Form(N_("unknown key (known: {known})")),
    Form(N_("expected {expected}, got {value}; using {default}"), phrases=(("expected", EXPECTED),)),
    Form(N_("unknown button (known: {known})")),
    Form(N_("expected a BCM pin number {low}-{high} or false, got {value}; not wired")),
    Form(N_("pin {pin} is already used by {other}; not wired")),
    Form(N_("missing, so the serial panel is off")),
    Form(N_("pyserial has no {scheme} URL handler, so the serial panel is off")),
    Form(N_("port {port} does not exist (yet); the panel will keep trying to open it")),
    Form(N_("expected a key name such as 'a', got {value}; no key")),
    Form(N_("key {key} is already used by {other}; no key")),
    Form(N_("its button has no pin, so the key has nothing to press")),
    Form(N_("not valid TOML ({error}); using hardware defaults")),
    Form(N_("cannot read {path} ({error}); using hardware defaults")),
    # hardware/ports.py
    Form(N_("{error}; GPIO buttons and LEDs are off"), nested=(("error", GPIO_ERRORS, False),)),
    Form(N_("cannot use the pins ({error}); GPIO buttons are off")),
    Form(N_("cannot use the pins ({error}); LEDs are off")),
)

# -- the journal (kiosk/journal.py) -------------------------------------------------------------

JOURNAL_DAMAGE = (
    Form(N_("it holds tables ({tables}) but no schema version")),
    Form(N_("its schema version is unreadable")),
    Form(N_("tables are missing: {tables}")),
)
JOURNAL_WHY = (
    Form(N_("it is in use by another kiosk process")),
    Form(N_("it is read-only")),
    Form(N_("the disk is full")),
    Form(N_("the file cannot be opened (is the folder read-only?)")),
)
JOURNAL_ERRORS = (
    Form(N_("The match journal cannot be kept: the folder {folder} cannot be created ({error}). "
            "Matches will not survive a restart.")),
    Form(N_("The match journal cannot be kept: the folder {folder} is read-only. Matches will not survive a restart.")),
    Form(N_("The match journal {path} cannot use write-ahead logging (mode {mode}): is the folder read-only?")),
    Form(N_("A new match journal could not be started at {path}: {error}"), nested=(("error", JOURNAL_DAMAGE, False),)),
    Form(N_("The match journal {path} cannot be used: {why}. Matches will not survive a restart."),
         nested=(("why", JOURNAL_WHY, False),)),
    Form(N_("The match journal {path} was written by a newer kiosk (schema {version}, this program knows {known}); "
            "it is left untouched.")),
    Form(N_("The match journal {path} is damaged: {error}")),
)

# -- whole warnings -------------------------------------------------------------------------------

WARNINGS = (
    # kiosk/config.py: the file as a whole
    Form(N_("the configuration file is not valid TOML ({error}); using defaults")),
    Form(N_("{path}: no such configuration file; using defaults")),
    Form(N_("{path}: cannot read the configuration ({error}); using defaults")),
    # kiosk/journal.py, python -m kiosk, kiosk/resume.py
    Form(N_("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and a new journal "
            "was started."), nested=(("reason", JOURNAL_DAMAGE, False),)),
    Form(N_("matches are not being saved: {reason}"), nested=(("reason", JOURNAL_ERRORS, False),)),
    Form(N_("The kiosk restarted but the unfinished match could not be restored ({error}); it was closed without "
            "a result.")),
    # a key (and its line): what is wrong with it
    Form(N_("{key} (line {line}): {message}"), nested=(("message", KEYED, True),)),
    Form(N_("{key}: {message}"), nested=(("message", KEYED, True),)),
)

# -- messages at a restart (kiosk/resume.py) and the stall watch (kiosk/stall.py) -----------------

RESTART = (
    Form(N_("The kiosk restarted before the match began; press Start when ready.")),
    Form(N_("The kiosk restarted; the match had already ended.")),
    Form(N_("The kiosk restarted; no clock was running, so nothing was lost.")),
    Form(N_("The machine restarted while Player {number}'s clock was running: the match is aborted without a result.")),
    Form(N_("The kiosk's clock went backwards while Player {number}'s clock was running: the match is aborted "
            "without a result.")),
    Form(N_("The kiosk restarted; Player {number}'s time ran out while it was down ({down}): Player {other} wins on "
            "time.")),
    Form(N_("The kiosk restarted; Player {number}'s time ran out while it was down: Player {other} wins on time.")),
    Form(N_("The kiosk restarted; the match continues on Player {number}'s clock.")),
    Form(N_("The kiosk restarted; the match continues — the {down} it was down were charged to Player {number}.")),
)
MESSAGES = (
    *RESTART,
    Form(N_("{message} The first command was damaged by the power cut and was dropped."),
         nested=(("message", RESTART, True),)),
    Form(N_("{message} The last command before the power cut was damaged and was dropped."),
         nested=(("message", RESTART, True),)),
    Form(N_("the monotonic clock went backwards by {gap}")),
    Form(N_("the kiosk could not take commands for {gap} while a clock ran (the limit is {limit})")),
)


def warning_text(english: str) -> str:
    """A warning as a ``Text`` every kiosk language can show (its ``str`` is ``english`` itself);
    ``english`` unchanged when no template makes it."""
    if isinstance(english, Text):
        return english
    found = match_forms(WARNINGS, english)
    return english if found is None else found


def message_text(english: str) -> str:
    """A restart or stall message (an English ``str`` given to ``session.say``) as a ``Text``;
    any other text unchanged."""
    if isinstance(english, Text):
        return english
    found = match_forms(MESSAGES, english)
    return english if found is None else found
