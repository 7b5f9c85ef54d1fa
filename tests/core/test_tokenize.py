import pytest

from attnviz import tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (
            "The movie was not good, but the soundtrack was amazing.",
            ["The", "movie", "was", "not", "good", ",", "but", "the", "soundtrack", "was", "amazing", "."],
        ),
        ("", []),
        ("   \t\n ", []),
        ("I don't  know,   it's fine", ["I", "don't", "know", ",", "it's", "fine"]),
        ("rock ’n’ roll isn’t", ["rock", "’", "n", "’", "roll", "isn’t"]),
        ("café naïve", ["café", "naïve"]),
        ("cafe\u0301", ["café"]),  # decomposed accent is joined to its letter
        ("我爱你", ["我", "爱", "你"]),
        ("東京に行く", ["東", "京", "に", "行", "く"]),
        ("한국어 문장", ["한국어", "문장"]),
        ("שלום עולם", ["שלום", "עולם"]),
        ("مرحبا بالعالم", ["مرحبا", "بالعالم"]),
        ("great 👍🏽!", ["great", "👍🏽", "!"]),
        ("👨\u200d👩\u200d👧 🇫🇷", ["👨\u200d👩\u200d👧", "🇫🇷"]),
        ("🇫🇷🇩🇪", ["🇫🇷", "🇩🇪"]),  # two flags with no space between: regional indicators pair up in order
        ("🇫🇷🇩🇪🇮🇹 vs", ["🇫🇷", "🇩🇪", "🇮🇹", "vs"]),
        ("<script>alert(1)</script>", ["<", "script", ">", "alert", "(", "1", ")", "<", "/", "script", ">"]),
        ("zero\u200bwidth", ["zero", "width"]),
        ("...", [".", ".", "."]),
        ("x=3.5", ["x", "=", "3", ".", "5"]),
    ],
)
def test_tokenize(text, tokens):
    assert tokenize(text) == tokens


def test_none_gives_no_tokens():
    assert tokenize(None) == []
