"""Why-scale page: the d_k slider, the seed and the row size, checked on the measured numbers."""

import numpy as np
import pytest

from attnviz.lessons import scaling
from tests.support.apptest import open_page, setting_key, texts, trace

PAGE = "pages/why_scale.py"


@pytest.fixture
def page():
    return open_page(PAGE)


def metrics(at) -> list[str]:
    return [m.value for m in at.metric]


def test_default_dk_64_variances(page):
    raw, scaled = (float(v) for v in metrics(page)[:2])
    assert raw == pytest.approx(64, rel=0.1) and scaled == pytest.approx(1, rel=0.1)
    measured = trace(page, "why_variance", 2, "y")
    np.testing.assert_allclose(measured / trace(page, "why_variance", 2, "x"), 1, rtol=0.12)
    np.testing.assert_allclose(trace(page, "why_variance", 3, "y"), 1, rtol=0.12)


def test_dk_slider_to_512_saturates_the_unscaled_row(page):
    page.slider(key=setting_key("why_scale", "d_k")).set_value(512).run()
    assert not page.exception
    raw, scaled = (float(v) for v in metrics(page)[:2])
    assert raw == pytest.approx(512, rel=0.1) and scaled == pytest.approx(1, rel=0.1)
    unscaled_row = trace(page, "why_row", 0, "y")
    scaled_row = trace(page, "why_row", 1, "y")
    assert unscaled_row.max() > 0.95 and scaled_row.max() < 0.5
    expected = scaling.one_row(512, n_tokens=16, seed=0)
    np.testing.assert_allclose(unscaled_row, expected.raw_weights)
    assert float(metrics(page)[2].split()[0]) < 0.3  # unscaled entropy in bits: near one-hot


def test_odd_dk_is_added_to_the_curve(page):
    page.slider(key=setting_key("why_scale", "d_k")).set_value(100).run()
    assert not page.exception
    assert 100 in trace(page, "why_variance", 2, "x")
    assert "Var(q·k) at d_k = 100" in [m.label for m in page.metric]


def test_seed_and_token_count(page):
    page.number_input(key=setting_key("why_scale", "seed")).set_value(7).run()
    page.slider(key=setting_key("why_scale", "tokens")).set_value(4).run()
    assert not page.exception
    assert len(trace(page, "why_row", 0, "y")) == 4
    expected = scaling.saturation((*scaling.DK_GRID, 64), n_tokens=4, seed=7)
    np.testing.assert_allclose(trace(page, "why_saturation", 0, "y"), expected.entropy_raw)
    assert "log₂ 4 = 2.00 bits" in texts(page.markdown)
