"""Challenges through the app: each is started from the Challenges page, shown unsolved with its goal above its page,
hinted after a Check that misses, solved by Show me's moves (played through the same moves a student makes), and
counted; a student's own moves solve them too; progress stays in the session, never in a share link."""

import pytest

from attnviz.classroom.share import encode, pack
from attnviz.lessons.challenges import CHALLENGES
from attnviz.ui import challenges as challenge_ui
from attnviz.ui.challenges import TRIED, Tried
from tests.app.test_real_model import ready
from tests.support.apptest import button, open_app, playground, setting_key, texts, use_control, views, views_data


def bar(at) -> str:
    return texts(at.markdown) + texts(at.success) + texts(at.info) + texts(at.caption)


def try_challenge(key: str):
    """Clicks "Try it" on the Challenges page; the app goes to the challenge's page (AppTest is told to stay there:
    it keeps its own page across runs, where a browser follows the address)."""
    at = open_app("challenges")
    at.button(key=f"challenge.{key}").click().run()
    assert not at.exception
    return at.switch_page(f"pages/{CHALLENGES[key].page}.py").run()


@pytest.mark.parametrize("key", list(CHALLENGES))
def test_every_challenge_starts_unsolved_hints_on_a_miss_and_show_me_solves_it(key, monkeypatch, request):
    monkeypatch.setattr(challenge_ui, "MOVE_EVERY_S", 0.0)  # play the moves without waiting a second for each
    challenge = CHALLENGES[key]
    if challenge.page == "real_model":  # the models loaded the tests' way; then the page waits for its run
        request.getfixturevalue("encoder"), request.getfixturevalue("decoder")
    at = try_challenge(key)
    if challenge.page == "real_model":
        ready(at)
    assert f"**Challenge:** {challenge.goal}" in bar(at).replace("\\", "") and "Solved!" not in bar(at)
    button(at, "Check").click().run()
    assert f"Not yet. Hint: {challenge.hint}" in bar(at).replace("\\", "")
    button(at, "Show me").click().run()
    assert not at.exception
    assert "**Solved!** The numbers on this page meet the goal." in bar(at), bar(at)
    assert "Show me: " in bar(at) and key in at.session_state[TRIED].solved


def test_a_challenges_start_is_a_fresh_start_not_a_change_counted_in_weights():
    """A challenge's reset was reported as "the last change moved 112 of 144 weights"."""
    at = try_challenge("uniform")
    use_control(at, "causal", True)  # a try that moves most weights; then the challenge again, from its start
    at.switch_page("pages/challenges.py").run()
    at.button(key="challenge.uniform").click().run()
    at.switch_page("pages/playground.py").run()
    assert not playground(at).causal
    caption = views_data(at)["caption"]
    assert caption.startswith("Start here:") and "The last change" not in caption
    assert views(at)["weights"]["changed"] == []


def test_a_students_own_moves_solve_them_on_every_kind_of_page():
    at = try_challenge("negation")
    use_control(at, "blocked_keys", [10])  # block “amazing”
    assert "Solved!" in bar(at)
    at = try_challenge("one_hot")
    at.slider(key=setting_key("why_scale", "d_k")).set_value(512).run()
    assert "Solved!" in bar(at)
    at = try_challenge("symmetric")
    at.checkbox(key=setting_key("multi_head", "tie")).check().run()
    assert "Solved!" in bar(at)
    at = try_challenge("right_angle")
    at.number_input(key=setting_key("geometry", "key1_x")).set_value(-1.0).run()
    at.number_input(key=setting_key("geometry", "key1_y")).set_value(3.0).run()
    assert "Solved!" in bar(at)
    at = try_challenge("largest_weight")
    at.radio(key=setting_key("step_by_step", "stage")).set_value("softmax").run()
    at.selectbox(key=setting_key("step_by_step", "key")).set_value(0).run()  # “it” → “animal”, 0.87
    assert "Solved!" in bar(at)


def test_a_move_that_undoes_the_goal_shows_it_unsolved_but_progress_stays():
    at = try_challenge("negation")
    use_control(at, "blocked_keys", [10])
    use_control(at, "blocked_keys", [])
    assert "Solved!" not in bar(at) and "negation" in at.session_state[TRIED].solved
    button(at, "Leave").click().run()
    assert "**Challenge:**" not in bar(at)


def test_progress_stays_with_the_student_not_in_the_share_link():
    """A teacher who solved two challenges shares the address: a student opening it starts at 0 solved, and a crafted
    link listing every challenge (older links carried a list) solves none."""
    teacher = try_challenge("negation")
    teacher.session_state[TRIED] = Tried(solved=("negation", "one_hot"))
    link = encode(playground(teacher), "challenges")
    student = open_app(s=link)
    assert f"0 of {len(CHALLENGES)} solved." in texts(student.markdown)
    crafted = f"1.{pack({'p': 'challenges', 'C': sorted(CHALLENGES)})}"
    assert f"0 of {len(CHALLENGES)} solved." in texts(open_app(s=crafted).markdown)
    said = texts(student.markdown)  # the page said "Your progress travels in the share link."
    assert "travels in the share link" not in said and "A share link does not carry your progress" in said
