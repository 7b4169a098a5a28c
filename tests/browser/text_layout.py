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


# How the page lays out the people's names given to it (as typed): ``{"zero_width": the
# texts and tooltips holding a zero-width space, "needless": the words of a name broken
# over two lines although the word alone fits on a line of its box, "overflow": the
# names whose text runs past their box's edge (a box cut on purpose with an ellipsis or
# a line clamp aside), "scroll_width": the page's}``; each name as ``[box, word or
# text]``. Run with ``page.evaluate(NAME_LAYOUT, names)``.
NAME_LAYOUT = """
names => {
  const out = {zero_width: [], needless: [], overflow: [],
               scroll_width: document.documentElement.scrollWidth};
  const marks = /[\\u2066-\\u2069\\u200b]/g;
  for (const element of document.querySelectorAll('[title]'))
    if (element.title.includes('\\u200b')) out.zero_width.push(element.title);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    if (text.includes('\\u200b')) out.zero_width.push(text);
    const plain = text.replace(marks, '');
    if (!names.some(name => plain.includes(name))) continue;
    let box = node.parentElement;
    while (box && getComputedStyle(box).display === 'inline') box = box.parentElement;
    if (!box || !box.getClientRects().length) continue;
    const style = getComputedStyle(box);
    const label = box.className || box.tagName;
    const outer = box.getBoundingClientRect();
    // (a zoomed box: its rectangle is zoomed, its clientWidth not)
    const scale = box.offsetWidth ? outer.width / box.offsetWidth : 1;
    const inner = (box.clientWidth - parseFloat(style.paddingLeft)
                   - parseFloat(style.paddingRight)) * scale;
    const cut = style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none';
    range.selectNodeContents(node);
    const whole = range.getBoundingClientRect();
    if (!cut && whole.width > 0 && (whole.right > outer.right + 1 || whole.left < outer.left - 1))
      out.overflow.push([label, plain]);
    for (const match of text.matchAll(/[^\\s\\u00ad-]+/gu)) {
      let top = null, broken = false, width = 0;
      for (let i = match.index; i < match.index + match[0].length; i++) {
        if ('\\u2066\\u2067\\u2068\\u2069\\u200b'.includes(text[i])) continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const boxes = range.getClientRects();
        const letter = boxes[boxes.length - 1];
        if (!letter) continue;
        width += letter.width;
        if (top !== null && letter.top > top + 1) broken = true;
        top = letter.top;
      }
      if (broken && width < inner - 1) out.needless.push([label, match[0].replace(marks, '')]);
    }
  }
  return out;
}
"""
