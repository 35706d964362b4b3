"""The translation catalogs: Babel extracts, checks and compiles; the kiosk loads the shipped .mo."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path

import pytest

from kiosk import i18n
from kiosk.i18n import catalogs
from kiosk.i18n.__main__ import main


def test_every_message_id_is_translated_in_all_four_catalogs_with_matching_placeholders() -> None:
    assert catalogs.check() == []


def test_message_ids_come_from_the_engine_the_hardware_and_the_kiosk() -> None:
    found = catalogs.extract()
    ids = {f.msgid for f in found}
    assert len(ids) > 150 and "Start" in ids and "Reveal my tiles" in ids
    assert {f.where.split("/")[0] for f in found} >= {"kiosk"}
    plural = next(f for f in found if f.msgid == "{n} pip left in hand")
    assert plural.plural == "{n} pips left in hand"


def test_each_catalog_carries_its_languages_plural_rule() -> None:
    for language in i18n.LANGUAGES:
        assert catalogs.read_catalog(language).plural_forms == i18n.PLURAL_FORMS[language]


def test_a_changed_english_id_fails_the_check_until_its_translations_follow(tmp_path: Path) -> None:
    (tmp_path / "kiosk").mkdir()
    source = tmp_path / "kiosk" / "screen.py"
    source.write_text('from kiosk.i18n import T\nSTART = T("Start")\n', "utf-8")
    assert catalogs.check(root=tmp_path, sources=["kiosk"], locations=False) == []
    source.write_text('from kiosk.i18n import T\nSTART = T("Start now")\n', "utf-8")
    problems = catalogs.check(root=tmp_path, sources=["kiosk"], locations=False)
    assert len(problems) == 4 and all("no entry for 'Start now'" in p for p in problems)


def test_an_untranslated_or_misplaced_placeholder_is_a_problem(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    uk = catalogs.read_catalog("uk", locale)
    uk["Round {number}"].string = "Раунд {numero}"
    uk["Start"].string = ""
    catalogs.write_catalog(uk, "uk", locale)
    catalogs.compile_catalogs(locale)
    problems = catalogs.check(locale)
    assert any("'Round {number}' form 0 has placeholders ['numero']" in p for p in problems)
    assert any("'Start' is not translated" in p for p in problems)
    assert len(problems) == 2


def test_a_shipped_mo_that_says_something_else_than_its_po_is_stale(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    assert catalogs.stale_mo(locale) == []
    ko = catalogs.read_catalog("ko", locale)
    ko["Start"].string = "출발"
    catalogs.write_catalog(ko, "ko", locale)
    assert catalogs.stale_mo(locale) == ["ko"]
    catalogs.compile_catalogs(locale)
    assert catalogs.stale_mo(locale) == []
    assert i18n.load_catalog("ko", locale).gettext("Start") == "출발"


def test_the_compiler_writes_mo_files_that_gettext_reads(tmp_path: Path) -> None:
    written = catalogs.compile_catalogs(out=tmp_path)
    assert len(written) == 4
    for path in written:
        with path.open("rb") as f:
            catalog = gettext.GNUTranslations(f)
        language = path.parts[-3]
        assert catalog.gettext("Start") == i18n.translator(language)._("Start")
    assert main(["compile", "--out", str(tmp_path / "cli")]) == 0
    assert (tmp_path / "cli" / "ko" / "LC_MESSAGES" / "spectacular_bid.mo").exists()


def test_check_command_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert "0 problems" in capsys.readouterr().out


def test_a_missing_catalog_shows_english_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = i18n.load_catalog("ko", tmp_path)
    assert catalog.gettext("Start") == "Start"
    assert "no usable catalog for 'ko'" in capsys.readouterr().err


def test_extract_adds_new_ids_and_drops_obsolete_ones_on_request(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    (tmp_path / "kiosk").mkdir()
    (tmp_path / "kiosk" / "screen.py").write_text('T("Start")\nT("A brand new text")\n', "utf-8")
    catalogs.update(locale, root=tmp_path, drop_obsolete=True)
    for language in i18n.LANGUAGES:
        ids = {m.id for m in catalogs.read_catalog(language, locale) if m.id}
        assert ids == {"Start", "A brand new text"}
    assert catalogs.read_catalog("en", locale)["A brand new text"].string == "A brand new text"
    assert catalogs.read_catalog("ko", locale)["A brand new text"].string == ""
    assert catalogs.read_catalog("ko", locale)["Start"].string == "시작"


def test_a_source_comment_naming_a_file_without_the_text_is_a_problem_until_extract_points_it_right(
        tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    (tmp_path / "kiosk").mkdir()
    (tmp_path / "kiosk" / "screen.py").write_text('from kiosk.i18n import T\n\nSTART = T("Start")\n', "utf-8")
    for language in i18n.LANGUAGES:
        catalog = catalogs.read_catalog(language, locale)
        catalog["Start"].locations = [("kiosk/warning_texts.py", 78)]  # a file that never held it
        catalogs.write_catalog(catalog, language, locale)
    catalogs.compile_catalogs(locale)
    problems = [p for p in catalogs.check(locale, root=tmp_path, sources=["kiosk"]) if "source comment" in p]
    assert len(problems) == 4 and all("names kiosk/warning_texts.py" in p for p in problems)
    catalogs.update(locale, root=tmp_path)
    assert catalogs.read_catalog("uk", locale)["Start"].locations == [("kiosk/screen.py", 3)]
    assert not [p for p in catalogs.check(locale, root=tmp_path, sources=["kiosk"]) if "source comment" in p]


def test_no_source_comment_of_the_shipped_catalogs_names_a_file_without_its_text() -> None:
    assert not [p for p in catalogs.check() if "source comment" in p]
