"""Signed checkpoints: the Ed25519 key kept outside the database, and the checkpoint lines.

A checkpoint states "the log had ``seq`` entries and its head hash was ``head_hash`` at
``time``", signed over the canonical JSON of ``{"head_hash", "key_id", "seq", "time"}``.
It is stored in ``audit_checkpoints`` and appended to a JSON Lines file outside the
database: someone who rewrites the whole database (recomputing the chain) cannot
make it agree with a checkpoint exported earlier, nor sign a new one without the key.

The private key is a PKCS#8 PEM file created with mode 0600 (its directory 0700) the first
time it is needed; ``<key>.pub`` holds the public key (SubjectPublicKeyInfo PEM) for
verifiers that must not hold the private one. ``key_id`` is the first 16 bytes of the
SHA-256 of the raw public key, hex.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .canonical import canonical_json
from .errors import AuditError

__all__ = ["Checkpoint", "SigningKey", "VerifyKey", "append_checkpoint_line",
           "read_checkpoint_lines"]


@dataclass(frozen=True)
class Checkpoint:
    """A signed statement of the log's head at one seq."""

    seq: int
    head_hash: str
    time: float
    key_id: str
    signature: str
    """Base64 of the 64-byte Ed25519 signature over :meth:`message`."""

    def message(self) -> bytes:
        return canonical_json({"head_hash": self.head_hash, "key_id": self.key_id,
                               "seq": self.seq, "time": self.time}).encode()

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "head_hash": self.head_hash, "time": self.time,
                "key_id": self.key_id, "signature": self.signature}

    @classmethod
    def from_dict(cls, data: Any) -> "Checkpoint":
        if not isinstance(data, dict):
            raise AuditError("a checkpoint is a JSON object")
        try:
            seq, head, at = data["seq"], data["head_hash"], data["time"]
            key_id, signature = data["key_id"], data["signature"]
        except KeyError as missing:
            raise AuditError(f"a checkpoint has no {missing}") from None
        if not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0
                and isinstance(head, str) and isinstance(at, (int, float))
                and isinstance(key_id, str) and isinstance(signature, str)):
            raise AuditError("a checkpoint's fields have the wrong types")
        return cls(seq=seq, head_hash=head, time=float(at), key_id=key_id, signature=signature)


def _key_id(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:32]


@dataclass(frozen=True)
class VerifyKey:
    """A public key that checks checkpoints and export manifests."""

    public: Ed25519PublicKey

    @property
    def key_id(self) -> str:
        return _key_id(self.public)

    def valid(self, message: bytes, signature: str) -> bool:
        try:
            self.public.verify(base64.b64decode(signature, validate=True), message)
        except (InvalidSignature, binascii.Error, ValueError):
            return False
        return True

    def checks(self, checkpoint: Checkpoint) -> bool:
        return checkpoint.key_id == self.key_id and self.valid(checkpoint.message(),
                                                                checkpoint.signature)

    @classmethod
    def load(cls, path: Path) -> "VerifyKey":
        """From a public key file, or from the private key file (its public half)."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise AuditError(f"cannot read the audit key {path}: {exc.strerror}") from exc
        try:
            if b"PRIVATE KEY" in data:
                private = serialization.load_pem_private_key(data, password=None)
                if isinstance(private, Ed25519PrivateKey):
                    return cls(private.public_key())
            else:
                public = serialization.load_pem_public_key(data)
                if isinstance(public, Ed25519PublicKey):
                    return cls(public)
        except ValueError as exc:
            raise AuditError(f"{path} is not a PEM key: {exc}") from exc
        raise AuditError(f"{path} is not an Ed25519 key")


class SigningKey:
    """The private key that signs checkpoints and manifests."""

    def __init__(self, private: Ed25519PrivateKey, path: Path) -> None:
        self._private = private
        self.path = path
        self.verify_key = VerifyKey(private.public_key())

    @property
    def key_id(self) -> str:
        return self.verify_key.key_id

    @classmethod
    def load_or_create(cls, path: Path) -> "SigningKey":
        """Load the key at ``path``; create it (0600, directory 0700) if there is none."""
        if not path.exists():
            cls._create(path)
        try:
            mode = path.stat().st_mode
            data = path.read_bytes()
        except OSError as exc:
            raise AuditError(f"cannot read the audit key {path}: {exc.strerror}") from exc
        if mode & 0o077:
            raise AuditError(f"the audit key {path} is readable by others "
                             f"(mode {mode & 0o777:o}); make it 0600")
        try:
            private = serialization.load_pem_private_key(data, password=None)
        except ValueError as exc:
            raise AuditError(f"{path} is not a PEM private key: {exc}") from exc
        if not isinstance(private, Ed25519PrivateKey):
            raise AuditError(f"{path} is not an Ed25519 private key")
        return cls(private, path)

    @staticmethod
    def _create(path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, pem)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            # A hard link fails if the name exists: of two processes creating the key at
            # once, one key wins and both use it.
            os.link(temp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(temp)
        public = Path(f"{path}.pub")
        if not public.exists():
            loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
            public.write_bytes(loaded.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self._private.sign(message)).decode()

    def checkpoint(self, seq: int, head_hash: str, at: float | None = None) -> Checkpoint:
        unsigned = Checkpoint(seq=seq, head_hash=head_hash,
                              time=float(time.time() if at is None else at),
                              key_id=self.key_id, signature="")
        return Checkpoint(seq=seq, head_hash=head_hash, time=unsigned.time, key_id=self.key_id,
                          signature=self.sign(unsigned.message()))


def append_checkpoint_line(path: Path, checkpoint: Checkpoint) -> None:
    """Append one checkpoint to the JSON Lines file, durably (fsync)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (canonical_json(checkpoint.to_dict()) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def read_checkpoint_lines(path: Path) -> Iterator[tuple[int, Checkpoint | str]]:
    """``(line number, checkpoint)`` per line, or ``(line number, why it is unreadable)``."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise AuditError(f"cannot read the checkpoints file {path}: {exc.strerror}") from exc
    with handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                yield number, Checkpoint.from_dict(json.loads(raw))
            except (ValueError, AuditError) as exc:
                yield number, f"line {number} of {path.name} is not a checkpoint ({exc})"
