"""The token bucket behind the class tally's rate limits: a burst, then a steady rate, with time passed in."""

from attnviz.classroom.rate import Bucket

T0 = 1_700_000_000.0


def takes(bucket: Bucket, times) -> list[bool]:
    allowed = []
    for now in times:
        ok, bucket = bucket.take(now)
        allowed.append(ok)
    return allowed


def test_a_burst_then_one_a_refill():
    assert takes(Bucket(burst=3, per_s=0.5), [T0] * 5) == [True, True, True, False, False]
    assert takes(Bucket(burst=3, per_s=0.5), [T0, T0, T0, T0 + 1, T0 + 2, T0 + 2]) == [True] * 3 + [False, True, False]


def test_a_long_pause_refills_only_up_to_the_burst():
    assert takes(Bucket(burst=2, per_s=1), [T0, T0, T0 + 3600, T0 + 3600, T0 + 3600]) == [True, True, True, True, False]


def test_a_clock_stepping_back_refills_nothing():
    assert takes(Bucket(burst=1, per_s=1), [T0, T0 - 100, T0 + 0.5, T0 + 1]) == [True, False, False, True]


def test_a_loop_of_a_thousand_a_second_gets_the_burst_and_the_rate():
    allowed = takes(Bucket(burst=5, per_s=0.5), [T0 + i / 1000 for i in range(10_000)])  # 10 s of a loop
    assert sum(allowed) == 5 + 4  # the burst (gone by 4 ms), then one every 2 s: at 2, 4, 6 and 8 s
