"""The training runs' CPU budget (rl/budget.py) on a clock the test moves: it stops a run early
enough that the longest step so far and the reserved closing work still fit."""

from __future__ import annotations

from hypothesis import given, strategies as st

from cardtable.rl.budget import CpuBudget


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
