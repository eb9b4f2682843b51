"""The questions and answers page (issue 18): facts and five answers, in both languages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ANCHORS = re.compile(r'href="/rules/#([a-z]+)"')


def _rules_anchors(client: Client) -> set[str]:
    return set(re.findall(r'<h2 id="([a-z]+)"', client.get("/rules/").content.decode()))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("1997", "3.47", "14 and up", "tie goes to the defender", "lowest colour")),
        ("zh-hans", ("1997", "3.47", "14岁以上", "守方获胜", "最少的那种颜色")),
    ],
)
def test_the_faq_answers_five_questions_each_linking_to_the_rules(
    language: str, words: tuple[str, ...]
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get("/faq/")
    page = response.content.decode()
    assert response.status_code == 200 and f'<html lang="{language}">' in page
    for word in words:
        assert word in page
    answers = page.split('<h2 id="')[2:]  # after the facts table
    assert len(answers) == 5
    existing = _rules_anchors(client)
    for answer in answers:
        linked = set(ANCHORS.findall(answer))
        assert linked and linked <= existing, answer[:40]


def test_the_faq_is_linked_from_the_nav_the_rules_and_the_home_page() -> None:
    client = Client()
    for path in ("/rules/", "/"):
        page = client.get(path).content.decode()
        assert page.count('href="/faq/"') >= 2, path  # the navigation and the page itself
