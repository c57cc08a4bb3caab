"""The audit log's settings: where the key and the checkpoints file live, and the
checkpoint policy, from the environment (a wrong value is a ConfigError naming it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.service import Settings
from sandbox.service.settings import ConfigError

VARIABLES = ("SANDBOX_AUDIT_KEY", "SANDBOX_AUDIT_KEY_DIR", "SANDBOX_AUDIT_CHECKPOINTS",
             "SANDBOX_AUDIT_CHECKPOINT_ENTRIES", "SANDBOX_AUDIT_CHECKPOINT_INTERVAL_S")


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_by_default_everything_sits_in_the_data_directory(tmp_path: Path) -> None:
    settings = Settings.from_env(data_dir=tmp_path)
    assert settings.audit_key_path == tmp_path / "audit" / "ed25519.key"
    assert settings.audit_checkpoints_path == tmp_path / "audit" / "checkpoints.jsonl"
    assert (settings.audit_checkpoint_entries, settings.audit_checkpoint_interval_s) == (1000, 600.0)


def test_the_key_directory_key_and_checkpoints_file_can_each_live_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_AUDIT_KEY_DIR", str(tmp_path / "vault"))
    settings = Settings.from_env(data_dir=tmp_path / "data")
    assert settings.audit_key_path == tmp_path / "vault" / "ed25519.key"
    assert settings.audit_checkpoints_path == tmp_path / "vault" / "checkpoints.jsonl"
    monkeypatch.setenv("SANDBOX_AUDIT_KEY", str(tmp_path / "k.pem"))
    monkeypatch.setenv("SANDBOX_AUDIT_CHECKPOINTS", str(tmp_path / "offsite" / "cp.jsonl"))
    monkeypatch.setenv("SANDBOX_AUDIT_CHECKPOINT_ENTRIES", "10")
    monkeypatch.setenv("SANDBOX_AUDIT_CHECKPOINT_INTERVAL_S", "0")
    settings = Settings.from_env(data_dir=tmp_path / "data")
    assert settings.audit_key_path == tmp_path / "k.pem"
    assert settings.audit_checkpoints_path == tmp_path / "offsite" / "cp.jsonl"
    assert (settings.audit_checkpoint_entries, settings.audit_checkpoint_interval_s) == (10, 0.0)


@pytest.mark.parametrize("name,value", [("SANDBOX_AUDIT_CHECKPOINT_ENTRIES", "-1"),
                                        ("SANDBOX_AUDIT_CHECKPOINT_ENTRIES", "many"),
                                        ("SANDBOX_AUDIT_CHECKPOINT_INTERVAL_S", "nan")])
def test_a_wrong_value_names_its_variable(monkeypatch: pytest.MonkeyPatch, name: str,
                                          value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        Settings.from_env()
