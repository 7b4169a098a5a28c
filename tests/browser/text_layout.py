"""Checks of how text is laid out in a page, shared by the games' browser tests."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Locator


def broken_words(selector: str) -> str:
    """A script listing the texts of the elements matching ``selector`` whose words go
    over two lines at a letter, not at a space or a soft hyphen (soft hyphens shown as
    ``-``)."""
    return """
[...document.querySelectorAll(__SELECTOR__)].filter(name => {
  // Every letter of the name's text (its words may sit in boxes of their own; a line
  // may break where one text ends and the next begins).
  const letters = [], walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (let i = 0; i < node.textContent.length; i++) letters.push([node, i]);
  const range = document.createRange();
  let top = null, previous = ' ', last = null;
  for (const [node, i] of letters) {
    const letter = node.textContent[i];
    if (node !== last) previous = ' ';  // another element's text ("Ana", then "you")
    last = node;
    if (letter === ' ' || letter === '\\u00ad') { previous = letter; continue; }
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const boxes = range.getClientRects();  // two at a break: the line's end, the next's start
    const box = boxes[boxes.length - 1];
    if (box) {
      if (top !== null && box.top > top + 1 && !' \\u00ad'.includes(previous)) return true;
      top = box.top;
    }
    previous = letter;
  }
  return false;
}).map(name => name.textContent.replaceAll('\\u00ad', '-'))
""".replace("__SELECTOR__", json.dumps(selector))


def hyphenated_words(selector: str) -> str:
    """A script listing the words (soft hyphens shown as ``-``) that go over two lines at
    a soft hyphen in the elements matching ``selector``."""
    return """
[...document.querySelectorAll(__SELECTOR__)].flatMap(name => {
  const letters = [], walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    for (let i = 0; i < node.textContent.length; i++) letters.push([node, i]);
  const text = letters.map(([node, i]) => node.textContent[i]).join('');
  const range = document.createRange(), words = [];
  let top = null;
  letters.forEach(([node, i], at) => {
    if (text[at] === ' ' || text[at] === '\\u00ad') return;
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const boxes = range.getClientRects();
    const box = boxes[boxes.length - 1];
    if (!box) return;
    if (top !== null && box.top > top + 1 && text[at - 1] === '\\u00ad') {
      const start = text.lastIndexOf(' ', at) + 1, end = text.indexOf(' ', at);
      words.push(text.slice(start, end < 0 ? text.length : end).replaceAll('\\u00ad', '-'));
    }
    top = box.top;
  });
  return words;
})
""".replace("__SELECTOR__", json.dumps(selector))


def fades(row: Locator) -> tuple[bool, bool]:
    """Whether a row that scrolls sideways (or a box that scrolls up and down) fades out
    at its start and at its end (where more of it is out of sight), once the scroll has
    been drawn."""
    fade = row.evaluate("""row => new Promise(done => requestAnimationFrame(() =>
        requestAnimationFrame(() => {
            const style = getComputedStyle(row);
            done([style.getPropertyValue("--fade-start"),
                  style.getPropertyValue("--fade-end")]);
        })))""")
    start, end = (float(value.strip().removesuffix("px") or 0) for value in fade)
    return start > 0, end > 0


def settles_to(row: Locator, expected: tuple[bool, bool], seconds: float = 5.0
               ) -> tuple[bool, bool]:
    """:func:`fades` once it equals ``expected``, or its last value after ``seconds`` (a
    row whose content still changes — players' badges coming in — is measured again)."""
    deadline = time.monotonic() + seconds
    seen = fades(row)
    while seen != expected and time.monotonic() < deadline:
        row.page.wait_for_timeout(100)
        seen = fades(row)
    return seen


# The screen-reader-only texts (``.sr-only``, absolutely placed) whose box is placed
# outside the scrolling panel that holds them: such a box stays where the panel's
# content would be unscrolled and stretches the page (Dixit's history, opened, made the
# page 3,671 px high at a 768 px window, all of it blank below the table).
HIDDEN_TEXT_OUTSIDE_ITS_SCROLLER = """
[...document.querySelectorAll('.sr-only')].filter(hidden => {
  for (let up = hidden.parentElement; up && up !== document.body; up = up.parentElement) {
    const overflow = getComputedStyle(up).overflowY;
    if (overflow === 'auto' || overflow === 'scroll')
      return !(hidden.offsetParent && up.contains(hidden.offsetParent));
  }
  return false;
}).map(hidden => hidden.textContent.slice(0, 40))
"""
