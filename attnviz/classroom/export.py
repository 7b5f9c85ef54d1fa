"""The Playground's matrices as files: a zip of CSV tables, JSON, or NumPy ``.npz``. Every value is exact.

Floats are written with ``repr``, which reads back to the identical float. Blocked (masked) cells of ``masked``
are -infinity: ``-inf`` in CSV and ``.npz``; in JSON, which has no infinity, they are ``null`` and the ``blocked``
matrix says which cells those are.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attnviz.core.playground_state import PlaygroundState

# Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed, so the same state always gives the same bytes
_JSON_FORMAT = "attnviz-matrices"
_JSON_VERSION = 1
_VECTORS = ("Q", "K", "V", "output")  # one row a token, one column a dimension; the rest are (query, key) tables


def matrices(state: PlaygroundState) -> dict[str, np.ndarray]:
    """Q, K, V and every step of attention, in the order they are computed."""
    Q, K, V = state.matrices()
    result = state.result()
    return {
        "Q": Q,  # (n, d_k)
        "K": K,  # (n, d_k)
        "V": V,  # (n, d_v)
        "scores": result.scores,  # (n, n) Q Kᵀ
        "scaled": result.scaled,  # (n, n) scores / scale factor, before any mask
        "masked": result.masked,  # (n, n) scaled with blocked cells -inf
        "weights": result.weights,  # (n, n) row softmax of masked
        "output": result.output,  # (n, d_v) weights V
    }


def column_labels(state: PlaygroundState, name: str, matrix: np.ndarray) -> list[str]:
    """Key labels for the (n, n) matrices; d1, d2, … for the vectors."""
    if name in _VECTORS:
        return [f"d{i + 1}" for i in range(matrix.shape[1])]
    return state.labels


def spreadsheet_text(text: str) -> str:
    """``text`` made inert for spreadsheets: a leading ' stops ``=cmd|…`` or ``+1`` from running as a formula."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def csv_table(state: PlaygroundState, name: str, matrix: np.ndarray) -> str:
    """One matrix as CSV: a header of column labels, then one row a token, headed by ``position: token``."""
    out = io.StringIO()
    writer = csv.writer(out)
    corner = "token" if name in _VECTORS else "query \\ key"
    writer.writerow([spreadsheet_text(text) for text in [corner, *column_labels(state, name, matrix)]])
    for label, row in zip(state.labels, matrix, strict=True):
        writer.writerow([spreadsheet_text(label), *(repr(float(value)) for value in row)])
    return out.getvalue()


def csv_zip(state: PlaygroundState) -> bytes:
    """A zip with one CSV a matrix (UTF-8 with a byte-order mark, so Excel reads non-English tokens)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, matrix in matrices(state).items():
            entry = zipfile.ZipInfo(f"{name}.csv", date_time=_ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, csv_table(state, name, matrix).encode("utf-8-sig"))
    return buffer.getvalue()


def json_bytes(state: PlaygroundState) -> bytes:
    """Tokens, settings and matrices as nested lists; ``masked`` has null where ``blocked`` is true (-inf)."""
    result = state.result()
    lists = {name: matrix.tolist() for name, matrix in matrices(state).items()}
    lists["masked"] = np.where(result.blocked, None, result.masked).tolist()  # -inf → None (null)
    document = {
        "format": _JSON_FORMAT,
        "version": _JSON_VERSION,
        "note": "masked is null where blocked is true: that cell is -infinity, which JSON cannot write.",
        "tokens": list(state.tokens),
        "labels": state.labels,
        "settings": {
            "sentence": state.sentence,
            "example": state.example,
            "seed": state.seed,
            "d_k": state.d_k,
            "d_v": state.d_v,
            "causal": state.causal,
            "scale": state.scale,
            "temperature": state.temperature,
            "scale_factor": result.scale_factor,
            "blocked_keys": list(state.blocked_keys),
            "focus": state.focus,
        },
        "matrices": lists,
        "blocked": result.blocked.tolist(),
        "fully_masked": result.fully_masked.tolist(),
    }
    return json.dumps(document, ensure_ascii=False, allow_nan=False).encode("utf-8")


def npz_bytes(state: PlaygroundState) -> bytes:
    """Every matrix plus ``blocked``, ``tokens`` and ``labels`` (unicode arrays: loads with allow_pickle=False)."""
    result = state.result()
    buffer = io.BytesIO()
    np.savez(
        buffer,
        **matrices(state),
        blocked=result.blocked,
        fully_masked=result.fully_masked,
        tokens=np.array(state.tokens, dtype=str),
        labels=np.array(state.labels, dtype=str),
        scale_factor=np.float64(result.scale_factor),
    )
    return buffer.getvalue()


def file_stem(state: PlaygroundState) -> str:
    """``attnviz-<first words>-n<tokens>``, in plain ASCII letters, digits and hyphens for any file system."""
    ascii_words = (
        unicodedata.normalize("NFKD", token).encode("ascii", "ignore").decode("ascii").lower() for token in state.tokens
    )
    words = [word for word in (re.sub(r"[^a-z0-9]+", "", word) for word in ascii_words) if word][:4]
    slug = "-".join(words)[:40].strip("-")
    return f"attnviz-{slug}-n{state.n}" if slug else f"attnviz-n{state.n}"


@dataclass(frozen=True)
class ExportFormat:
    label: str  # for the download button
    extension: str
    mime: str
    build: Callable[[PlaygroundState], bytes]

    def file_name(self, state: PlaygroundState) -> str:
        return f"{file_stem(state)}.{self.extension}"


FORMATS = (
    ExportFormat("CSV tables (.zip)", "zip", "application/zip", csv_zip),
    ExportFormat("JSON", "json", "application/json", json_bytes),
    ExportFormat("NumPy (.npz)", "npz", "application/octet-stream", npz_bytes),
)
