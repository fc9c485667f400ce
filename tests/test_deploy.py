"""The systemd units in deploy/ start what exists, stop it with SIGTERM, restart it on failure and
set only settings the bot reads."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNITS = sorted((ROOT / "deploy").glob("*.service"))


def unit(path: Path) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser


def test_the_bot_units_stop_with_sigterm_and_restart_on_failure():
    names = {path.name for path in UNITS}
    assert {"cardtable.service", "cardtable-cluster.service", "cardtable-backup.service"} <= names
    for name, module in (("cardtable.service", "-m bot"), ("cardtable-cluster.service", "-m bot.cluster")):
        service = unit(ROOT / "deploy" / name)["Service"]
        assert service["ExecStart"].endswith(module) or f"{module} " in service["ExecStart"], service["ExecStart"]
        assert service["KillSignal"] == "SIGTERM" and service["Restart"] == "on-failure"
        assert service["RestartPreventExitStatus"] == "2"  # a wrong setting is not retried
        assert int(service["TimeoutStopSec"]) >= 30
        assert "StartLimitBurst" in unit(ROOT / "deploy" / name)["Unit"]
    backup = unit(ROOT / "deploy" / "cardtable-backup.service")["Service"]
    assert "-m bot backup " in backup["ExecStart"]
    assert (ROOT / "deploy" / "cardtable-backup.timer").exists()


def test_the_units_set_only_settings_the_bot_reads():
    documented = set(re.findall(r"^#? ?([A-Z_]+)=", (ROOT / ".env.example").read_text(encoding="utf-8"), re.M))
    for path in UNITS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("Environment="):
                name = line.removeprefix("Environment=").split("=", 1)[0]
                assert name in documented, f"{path.name} sets {name}, which .env.example does not describe"
