"""The benchmark command runs and reports sane figures (timing itself is not judged here)."""

from __future__ import annotations

import pytest

from hardware import bench


def test_gpio_bench_figures() -> None:
    result = bench.bench_gpio(500)
    assert result.count == 500
    assert 0 < result.median_us <= result.p99_us <= result.worst_us


def test_serial_bench_figures() -> None:
    result = bench.bench_serial(20)
    assert result.count == 20 and result.median_us > 0


def test_main_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--presses", "200", "--serial", "5"])
    out = capsys.readouterr().out
    assert "gpio mock edge -> queue: 200 presses, median" in out
    assert "serial pty line -> queue: 5 presses" in out
