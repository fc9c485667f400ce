"""Carrying the host's ``set`` changes over to a newly chosen preset.

Choosing a preset used to start from the preset alone and silently drop every earlier ``set``.
Now each earlier change is tried on the new preset, in the order the host made them: one that
the new preset accepts (with the changes kept before it) is kept; one it refuses is dropped,
with the rules' own reason, so the host is told which were kept and why the others went.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.contract import AnyKind
from games.common.engine import RulesError
from locales import _


@dataclass
class Carried:
    """The options kept for the new preset, and the dropped ones with the reason for each."""

    kept: dict[str, str] = field(default_factory=dict)
    dropped: list[tuple[str, str, str]] = field(default_factory=list)

    def summary(self, preset: str) -> str:
        """One or two lines for the host (empty when there was nothing to carry)."""
        lines = []
        if self.kept:
            kept = ", ".join(f"{k}={v}" for k, v in self.kept.items())
            lines.append(_("Kept your changes on {preset}: {kept}.", preset=preset, kept=kept))
        for name, value, reason in self.dropped:
            lines.append(_("Dropped {name}={value}: {reason}", name=name, value=value, reason=reason))
        return "\n".join(lines)


def carry_options(kind: AnyKind, preset: str, options: dict[str, str]) -> Carried:
    """Each of ``options`` that ``preset`` still accepts, tried in the order they were set."""
    out = Carried()
    for name, value in options.items():
        trial = {**out.kept, name: value}
        try:
            kind.make_rules(preset, trial)
        except RulesError as error:
            out.dropped.append((name, value, str(error)))
        else:
            out.kept = trial
    return out
