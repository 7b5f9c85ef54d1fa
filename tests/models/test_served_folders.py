"""A model folder named by a visitor of a served app (the Real model page, a share link, a challenge) is opened only
under ATTNVIZ_MODEL_FOLDERS, and not at all where it is unset (Community Cloud, a school's server): a visitor cannot
make the server read its own disk. A notebook or a script opens any folder."""

from __future__ import annotations

import shutil

import pytest

from attnviz import AttnvizInputError
from attnviz.models import background, registry
from attnviz.models.registry import SERVED_FOLDERS, check_model_name, load_model
from tests.models.test_open import TINY

NO_FOLDERS = (
    "There is no model called {!r}: choose all-MiniLM-L6-v2 or SmolLM2-135M, a Hugging Face id such as "
    "openai-community/gpt2 (this server opens no folders of its own disk)."
)


@pytest.fixture
def folder(tmp_path):
    return str(shutil.copytree(TINY / "llama", tmp_path / "inside" / "llama"))


def test_a_served_app_without_the_setting_opens_no_folder(monkeypatch, folder):
    monkeypatch.delenv(SERVED_FOLDERS, raising=False)
    with pytest.raises(AttnvizInputError) as refused:
        check_model_name(folder, served=True)
    assert str(refused.value) == NO_FOLDERS.format(folder)
    job = background.Worker().submit(folder, "The cat sat.")
    assert job.done and str(job.error) == NO_FOLDERS.format(folder)  # refused at the page's door, nothing loaded
    assert check_model_name(folder) == folder  # a notebook's load_model opens it


def test_a_served_app_opens_folders_under_the_setting_only(monkeypatch, tmp_path, folder):
    monkeypatch.setattr(registry, "_user", {})
    monkeypatch.setenv(SERVED_FOLDERS, str(tmp_path / "inside"))
    assert load_model(folder, served=True).run("The cat sat.").tokens[0] == "<s>"
    outside = str(shutil.copytree(TINY / "llama", tmp_path / "outside"))
    with pytest.raises(AttnvizInputError, match=r"^There is no model called .*, or a model folder\.$"):
        check_model_name(outside, served=True)
    escaping = str(tmp_path / "inside" / ".." / "outside")  # a path that climbs out of the allowed folder
    with pytest.raises(AttnvizInputError, match=r"^There is no model called "):
        check_model_name(escaping, served=True)
