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
  const text = name.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return false;
  const letters = text.textContent, range = document.createRange();
  let top = null;
  for (let i = 0; i < letters.length; i++) {
    if (letters[i] === ' ' || letters[i] === '\\u00ad') continue;
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const boxes = range.getClientRects();  // two at a break: the line's end, the next's start
    const box = boxes[boxes.length - 1];
    if (!box) continue;
    if (top !== null && box.top > top + 1 && !' \\u00ad'.includes(letters[i - 1])) return true;
    top = box.top;
  }
  return false;
}).map(name => name.textContent.replaceAll('\\u00ad', '-'))
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
