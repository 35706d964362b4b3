"""The benchmark command runs and reports figures computed the documented way (timing itself is not judged here)."""

from __future__ import annotations

import random

import pytest

from hardware import bench


def test_figures_are_the_median_the_nearest_rank_99th_percentile_and_the_worst() -> None:
    samples = [1_000 * n for n in range(1, 1001)]  # 1 us .. 1000 us
    random.Random(5).shuffle(samples)
    assert bench.figures(samples) == bench.Figures(1000, 500.5, 990.0, 1000.0)
    assert bench.figures([3_000, 1_000, 2_000]) == bench.Figures(3, 2.0, 3.0, 3.0)
    assert bench.figures([7_000]) == bench.Figures(1, 7.0, 7.0, 7.0)
    hundred = [1_000 * n for n in range(100, 0, -1)]
    assert bench.figures(hundred).p99_us == 99.0  # rank 99 of 100, not the worst


def test_figures_line() -> None:
    assert bench.Figures(3, 2.0, 3.5, 4.0).line("x") == "x: 3 presses, median 2.0 us, p99 3.5 us, worst 4.0 us"


def test_gpio_bench_times_every_press() -> None:
    result = bench.bench_gpio(500)
    assert result.count == 500
    assert result.median_us > 0


def test_serial_bench_times_every_press() -> None:
    result = bench.bench_serial(20)
    assert result.count == 20 and result.median_us > 0


def test_main_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status = bench.main(["--presses", "200", "--serial", "5"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("gpio mock edge -> queue: 200 presses, median ")
    assert out[1] == "target: median <= 1000 us: " + ("meets" if status == 0 else "MISSES")
    assert out[2].startswith("serial pty line -> queue: 5 presses, median ")
    assert len(out) == 3
