"""axe-core (Deque's accessibility rules) run inside a page of the browser tests (issue 34).

axe-core comes from the npm registry at the version ``package.json`` pins (with its hash in
``package-lock.json``); ``make test`` installs it with ``npm ci`` into ``node_modules/``. The
source is evaluated through the DevTools protocol, so the page's Content-Security-Policy (no
inline script, no eval) does not refuse it: given to a browser context once
(``axe_in_context``: Chromium evaluates it as each document of the context starts), or put
in a page by ``axe_violations`` when missing (Playwright's ``evaluate``: the whole source
sent for each page, about 0.4 s a page on this machine, a quarter of a sweep). Checking the
same page again (another width, a piece picked) reuses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# What fails a test: axe's two highest impacts, whatever the rule, and the rules of lower
# impact that issue 34 mended (headings in order, no empty column header), kept mended.
FAILING_IMPACTS = frozenset({"serious", "critical"})
FAILING_RULES = frozenset({"heading-order", "empty-table-header"})

# axe.run's options: violations only (collecting the passes costs time and is not read).
RUN = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary})),
  }));
}"""


@dataclass(frozen=True)
class Violation:
    """One rule broken on one page state: where, the rule, its impact and the elements."""

    where: str
    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]
    summary: str

    @property
    def fails(self) -> bool:
        """Return whether the violation fails the tests (a serious or critical impact, or a
        rule of ``FAILING_RULES``)."""
        return self.impact in FAILING_IMPACTS or self.rule in FAILING_RULES

    def __str__(self) -> str:
        shown = ", ".join(self.targets[:4]) + (" …" if len(self.targets) > 4 else "")
        first = self.summary.splitlines()[1:2] or [""]
        return f"{self.where}: {self.rule} ({self.impact}) {shown} — {first[0].strip()}"


@cache
def axe_source() -> str:
    """Return axe-core's source (``node_modules/axe-core/axe.min.js``).

    Raises ``FileNotFoundError`` naming the command that installs it when it is missing.
    """
    if not AXE_JS.exists():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `make node-packages` (make test does)")
    return AXE_JS.read_text(encoding="utf-8")


def axe_in_context(context: Any) -> None:
    """Give axe-core to every page ``context`` (a Playwright ``BrowserContext``) opens from
    now on, before the page's own scripts run.

    Raises ``FileNotFoundError`` when ``node_modules`` lacks axe-core (``axe_source``).
    """
    context.add_init_script(script=axe_source())


def axe_violations(page: Any, where: str) -> list[Violation]:
    """Run axe-core over ``page`` as it is now; return every violation, ``where`` naming it."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(RUN)
    return [
        Violation(
            where=where,
            rule=v["rule"],
            impact=v["impact"] or "",
            help=v["help"],
            targets=tuple(n["target"] for n in v["nodes"]),
            summary=v["nodes"][0]["summary"] if v["nodes"] else "",
        )
        for v in found
    ]
