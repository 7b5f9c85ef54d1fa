"""Exports: every format reads back to exactly the numbers the state computes, and CSV is inert in spreadsheets."""

import csv
import io
import json
import zipfile
from dataclasses import replace

import numpy as np
import pytest

from attnviz.classroom.export import FORMATS, csv_zip, file_stem, json_bytes, matrices, npz_bytes, spreadsheet_text
from attnviz.core.playground_state import PlaygroundState, apply_edits, load_example

NAMES = ["Q", "K", "V", "scores", "scaled", "masked", "weights", "output"]


@pytest.fixture
def state() -> PlaygroundState:
    """Blocked key 3 and a causal mask, so masked has -inf cells; edits with values that need all 17 digits."""
    state = replace(load_example(PlaygroundState(), "pronoun_it"), causal=True, temperature=0.35)
    state, _ = apply_edits(state, "Q", {(0, 1): 0.1 + 0.2, (2, 0): -1 / 3})
    state, _ = apply_edits(state, "V", {(1, 1): 2 / 7})
    return state


def expected(state: PlaygroundState) -> dict[str, np.ndarray]:
    Q, K, V = state.matrices()
    result = state.result()
    return {
        "Q": Q,
        "K": K,
        "V": V,
        "scores": result.scores,
        "scaled": result.scaled,
        "masked": result.masked,
        "weights": result.weights,
        "output": result.output,
    }


def read_csvs(data: bytes) -> dict[str, list[list[str]]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {
            name.removesuffix(".csv"): list(csv.reader(io.StringIO(archive.read(name).decode("utf-8-sig"))))
            for name in archive.namelist()
        }


def test_matrices_are_the_states_own_numbers(state):
    named = matrices(state)
    assert list(named) == NAMES
    for name, matrix in expected(state).items():
        assert named[name].tobytes() == matrix.tobytes()
    assert named["Q"][0, 1] == 0.30000000000000004


def test_csv_zip_holds_one_exact_table_a_matrix(state):
    tables = read_csvs(csv_zip(state))
    assert list(tables) == NAMES
    labels = ["0: animal", "1: street", "2: because", "3: it"]
    for name, matrix in expected(state).items():
        header, *rows = tables[name]
        if name in ("Q", "K", "V", "output"):
            assert header == ["token", "d1", "d2"]
        else:
            assert header == ["query \\ key", *labels]
        assert [row[0] for row in rows] == labels
        values = np.array([[float(cell) for cell in row[1:]] for row in rows])
        assert values.tobytes() == matrix.tobytes(), name  # bit for bit, -inf included
    assert tables["masked"][1][1:] == [repr(float(state.result().scaled[0, 0])), "-inf", "-inf", "-inf"]
    assert tables["scaled"][1][4] == repr(float(state.result().scaled[0, 3]))  # scaled keeps the number under the mask
    assert tables["Q"][1] == ["0: animal", "3.0", "0.30000000000000004"]


def test_csv_zip_is_the_same_bytes_every_time(state):
    assert csv_zip(state) == csv_zip(replace(state))


def test_spreadsheet_text_neutralises_formulas():
    assert spreadsheet_text("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0"
    assert spreadsheet_text("+1") == "'+1"
    assert spreadsheet_text("-2+3") == "'-2+3"
    assert spreadsheet_text("@SUM(A1)") == "'@SUM(A1)"
    assert spreadsheet_text("\t=1") == "'\t=1"
    assert spreadsheet_text("0: =") == "0: ="  # starts with a digit: already plain text
    assert spreadsheet_text("cat") == "cat"


def test_no_text_cell_of_the_csv_can_run_as_a_formula():
    state = PlaygroundState(sentence="=cmd|' /C calc'!A0 +1 @SUM(A1) -2", focus=0)
    tables = read_csvs(csv_zip(state))
    header, *rows = tables["weights"]
    assert "0: =" in header and "0: =" in [row[0] for row in rows]
    for table in tables.values():
        header, *rows = table
        for text in header + [row[0] for row in rows]:
            assert not text.startswith(("=", "+", "-", "@", "\t", "\r")), text


def test_json_reads_back_exactly_with_null_for_blocked_cells(state):
    document = json.loads(json_bytes(state))
    assert (document["format"], document["version"]) == ("attnviz-matrices", 1)
    assert document["tokens"] == ["animal", "street", "because", "it"]
    assert document["labels"][3] == "3: it"
    assert document["settings"] == {
        "sentence": "animal street because it",
        "example": "pronoun_it",
        "seed": 42,
        "d_k": 2,
        "d_v": 2,
        "causal": True,
        "scale": True,
        "temperature": 0.35,
        "scale_factor": 2**0.5 * 0.35,
        "blocked_keys": [3],
        "focus": 3,
    }
    result = state.result()
    assert document["blocked"] == result.blocked.tolist()
    assert document["fully_masked"] == [False] * 4
    assert list(document["matrices"]) == NAMES
    for name, matrix in expected(state).items():
        if name == "masked":
            restored = np.array(
                [[-np.inf if cell is None else cell for cell in row] for row in document["matrices"][name]]
            )
        else:
            restored = np.array(document["matrices"][name])
        assert restored.tobytes() == matrix.tobytes(), name
    assert document["matrices"]["masked"][0] == [result.scaled[0, 0], None, None, None]


def test_npz_loads_without_pickle_and_matches_exactly(state):
    with np.load(io.BytesIO(npz_bytes(state)), allow_pickle=False) as archive:
        for name, matrix in expected(state).items():
            assert archive[name].dtype == np.float64
            assert archive[name].tobytes() == matrix.tobytes(), name
        result = state.result()
        np.testing.assert_array_equal(archive["blocked"], result.blocked)
        np.testing.assert_array_equal(archive["fully_masked"], result.fully_masked)
        assert archive["tokens"].tolist() == ["animal", "street", "because", "it"]
        assert archive["labels"].tolist() == state.labels
        assert archive["scale_factor"] == result.scale_factor


@pytest.mark.parametrize(
    ("sentence", "stem"),
    [
        ("The movie was not good, but the soundtrack was amazing.", "attnviz-the-movie-was-not-n12"),
        ("../../etc/passwd", "attnviz-etc-passwd-n9"),
        ("Ünïcödé café naïve", "attnviz-unicode-cafe-naive-n3"),
        ("猫が座った", "attnviz-n5"),
        ("supercalifragilisticexpialidocious " * 3, "attnviz-supercalifragilisticexpialidocious-super-n3"),
    ],
)
def test_file_names_are_short_safe_and_descriptive(sentence, stem):
    state = PlaygroundState(sentence=sentence, focus=0)
    assert file_stem(state) == stem
    assert [f.file_name(state) for f in FORMATS] == [f"{stem}.zip", f"{stem}.json", f"{stem}.npz"]


def test_the_download_formats():
    assert [(f.extension, f.mime, f.build) for f in FORMATS] == [
        ("zip", "application/zip", csv_zip),
        ("json", "application/json", json_bytes),
        ("npz", "application/octet-stream", npz_bytes),
    ]
