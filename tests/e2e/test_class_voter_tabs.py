"""One answer a browser, not a tab and not a session: the voter id a phone keeps in its localStorage
(attnviz.ui.class_join) is the same in a second tab and in the browser restarted with its storage, so each of those
answers replaces the phone's last; a second browser is a second student."""

from __future__ import annotations

from tests.e2e.test_class_join import PHONE, PROJECTOR, answer, ask_the_class, bars_become, phone_says
from tests.support.live import open_app_page


def answered(page, address: str, code: str, key: int, said: str) -> None:
    open_app_page(page, address)
    answer(page, key)
    phone_says(page, f"Counted for the class question {code}: {said}.")


def test_a_second_tab_and_a_restarted_browser_count_as_the_same_phone_and_another_browser_does_not(browser, server):
    teacher_context = browser.new_context(viewport=PROJECTOR)
    contexts = [teacher_context]
    try:
        code, address = ask_the_class(teacher_context.new_page(), server.url)
        teacher = teacher_context.pages[0]
        phone = browser.new_context(viewport=PHONE)
        contexts.append(phone)
        answered(phone.new_page(), address, code, 3, "3: not")
        assert bars_become(teacher, {3: 1})

        answered(phone.new_page(), address, code, 10, "10: amazing")  # a second tab, the first still open
        assert bars_become(teacher, {10: 1})  # the tab's answer replaced the first: one browser, one answer

        kept = phone.storage_state()  # the browser closed, and started again with what it stored
        phone.close()
        restarted = browser.new_context(viewport=PHONE, storage_state=kept)
        contexts.append(restarted)
        answered(restarted.new_page(), address, code, 5, "5: ,")
        assert bars_become(teacher, {5: 1})

        other = browser.new_context(viewport=PHONE)  # another phone: nothing stored
        contexts.append(other)
        answered(other.new_page(), address, code, 3, "3: not")
        assert bars_become(teacher, {3: 1, 5: 1})
    finally:
        for context in contexts:
            context.close()
