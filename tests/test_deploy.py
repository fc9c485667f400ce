"""The systemd units in deploy/ start what exists, stop it with SIGTERM, restart it on failure,
set only settings the bot reads, and are sandboxed: systemd's own ``systemd-analyze verify`` finds
nothing to say about them and ``systemd-analyze security`` rates each service 4.0 or less (where
systemd's tools are installed: a skip with the reason elsewhere)."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
    for name, module in (("cardtable.service", "-m bot"), ("cardtable-cluster.service", "-m bot.host.cluster")):
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


#: the most ``systemd-analyze security`` may rate a unit ("OK" ends at 4.9; 0 is the safest)
EXPOSURE = 4.0
INSTALLED_PYTHON = "/opt/cardtable/.venv/bin/python"


def test_every_service_keeps_its_files_from_other_users():
    """UMask=0077: the database (and a backup of it) holds live games' seeds; without it every file
    the service writes is readable by every local user (systemd's default umask is 0022)."""
    for path in UNITS:
        assert unit(path)["Service"].get("UMask") == "0077", f"{path.name} sets no UMask=0077"


def analyzable(tmp_path: Path) -> list[Path]:
    """The units, copied with this suite's interpreter in place of the installed one (verify checks
    that each command exists), and the timer; or the test skips where systemd-analyze cannot run
    offline (not installed, or older than systemd 250: no ``security --offline``)."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed (systemd's tools): the units are not analysed here")
    copies = []
    for path in sorted((ROOT / "deploy").iterdir()):
        copy = tmp_path / path.name
        copy.write_text(path.read_text(encoding="utf-8").replace(INSTALLED_PYTHON, sys.executable), encoding="utf-8")
        copies.append(copy)
    tried = subprocess.run(
        [tool, "security", "--offline=yes", str(copies[0])], capture_output=True, text=True, timeout=60
    )
    if "Overall exposure level" not in tried.stdout:
        said = (tried.stderr.strip().splitlines() or [f"exit status {tried.returncode}"])[-1]
        pytest.skip(f"systemd-analyze security --offline=yes does not run here ({said})")
    return copies


def test_systemd_finds_nothing_to_say_about_the_units(tmp_path):
    copies = analyzable(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", *map(str, copies)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stdout + done.stderr


def test_the_services_are_sandboxed(tmp_path):
    for copy in analyzable(tmp_path):
        if copy.suffix != ".service":
            continue
        done = subprocess.run(
            ["systemd-analyze", "security", "--offline=yes", str(copy)], capture_output=True, text=True, timeout=60
        )
        found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
        assert found, done.stdout + done.stderr
        assert float(found.group(1)) <= EXPOSURE, f"{copy.name}: {found.group(0)}\n{done.stdout}"
