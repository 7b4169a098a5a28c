"""Where a tap lands: for checks that a small control is easy to press with a finger and
takes no tap meant for its neighbours."""

from __future__ import annotations

from playwright.sync_api import Locator, Page


def tapped_at(page: Page, control: Locator, beyond: float) -> str | None:
    """The ``data-action`` of what a tap at ``control``'s middle, ``beyond`` px past its
    edge (below its bottom; negative: above its top), lands on."""
    box = control.bounding_box()
    assert box is not None
    y = box["y"] + beyond if beyond < 0 else box["y"] + box["height"] + beyond
    return page.evaluate("""([x, y]) => document.elementFromPoint(x, y)
                              ?.closest("[data-action]")?.dataset.action ?? null""",
                         [box["x"] + box["width"] / 2, y])
