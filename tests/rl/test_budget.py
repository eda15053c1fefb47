"""The training runs' CPU budget (rl/budget.py) on a clock the test moves: it stops a run early
enough that the longest step so far and the reserved closing work still fit; and the
whole-process budget on the process's own clock (the children it waited for included)."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given, strategies as st

from cardtable.rl.budget import CLOSING, CpuBudget, process_cpu


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_it_stops_while_the_longest_step_and_the_reservation_still_fit():
    clock = Clock()
    b = CpuBudget(60, clock)
    assert not b.over()
    clock.now += 10                    # a 10 s step
    assert not b.over()                # 10 spent + 10 longest < 60
    b.reserve(5)
    clock.now += 30                    # a 30 s step: 40 spent + 30 longest >= 60
    assert b.over()
    assert b.spent() == 40


def test_the_reserved_work_is_not_counted_as_a_step():
    clock = Clock()
    b = CpuBudget(60, clock)
    clock.now += 5
    assert not b.over()
    clock.now += 20                    # an export of 20 s, measured and reserved
    b.reserve(20)
    b.restart_stretch()
    clock.now += 5
    assert not b.over()                # 30 spent + 5 longest + 20 reserved < 60
    assert b.longest == 5
    b.reserve(3)                       # the largest reservation holds
    assert b.tail == 20


@given(st.floats(1, 3600), st.lists(st.floats(0, 50), min_size=1, max_size=200),
       st.floats(0, 30))
def test_a_run_of_steps_no_longer_than_the_first_ends_inside_the_budget(seconds, steps, tail):
    """Steps checked between them, none longer than the first, then the reserved closing work:
    a run that took a step after the first (so had measured one) ends inside the budget."""
    clock = Clock()
    b = CpuBudget(seconds, clock)
    b.reserve(tail)
    steps = [max(steps)] + steps
    done = 0
    while done < len(steps) and not b.over():
        clock.now += steps[done]
        done += 1
    clock.now += tail
    if done >= 2:
        assert b.spent() <= seconds + 1e-9


def test_the_whole_process_budget_counts_from_the_process_start_and_keeps_the_closing():
    """`whole_process` counts the CPU the process spent before the budget was made (imports,
    warm-up) and stops `CLOSING` seconds earlier than a budget without it would."""
    spent_before = process_cpu()
    b = CpuBudget.whole_process(spent_before + 2 * CLOSING)
    assert b.start == 0.0 and b.spent() >= spent_before
    assert not b.over()                # spent_before + a tiny stretch + CLOSING < the budget
    b.seconds = b.spent() + CLOSING
    assert b.over()                    # only the closing's time is left: stop


def test_the_process_clock_counts_the_children_waited_for():
    def children() -> float:
        t = os.times()
        return t.children_user + t.children_system

    c0, p0 = children(), process_cpu()
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"], check=True)
    grew = children() - c0
    assert grew > 0
    assert process_cpu() - p0 >= grew - 1e-9        # (clock ticks of 10 ms, in floats)
