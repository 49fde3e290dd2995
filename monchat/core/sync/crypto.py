"""An encrypted sync folder (issue 41, point 7): a passphrase seals every line monchat writes there.

``<FOLDER>/monchat/encryption.json`` says the folder is encrypted and holds what the key is derived with (scrypt:
its salt and costs) and a check value (a sealed known text), never the key nor the passphrase: a wrong passphrase
is found at once, before anything is written. The key is scrypt(passphrase, salt) — 32 bytes for AES-256-GCM
(``cryptography``'s ``AESGCM``). Each line of each file is one token: urlsafe base64 of a random 12-byte nonce
and the ciphertext with its tag, the associated data the file's path from its device's folder
(``folder.file_binding``: ``<device-id>/journal/2026-11.jsonl``), so a line moved to another file, another month
or another device's folder does not open (refused, never read). ``device.json`` is one such line.

What stays readable: the names of the files (device ids, months), their sizes, how many lines each holds and
when they were written (``docs/sync.md``).
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import InputError, KeyringUnavailable
from ..paths import write_private
from ..privacy.secrets import SecretStore
from ..redact import register
from ..store.sync import Device, Offset, SyncStore
from .folder import PLAIN, Codec, file_binding

ENCRYPTION_FILE = "encryption.json"
CIPHER = "AES-256-GCM"
KDF = "scrypt"
COST = {"n": 2 ** 15, "r": 8, "p": 1}  # 32 MiB, ~0.1 s a derivation here; kept once a process
CHECK = b"monchat sync folder"
CHECK_BINDING = ENCRYPTION_FILE
MIN_PASSPHRASE = 8
NONCE = 12
PASSPHRASE_ENV = "MONCHAT_SYNC_PASSPHRASE"


class WrongPassphrase(InputError):
    """The passphrase does not open the folder's check value (exit 2, code "input": bad input, not our bug)."""


@dataclass(frozen=True)
class FolderKey:
    """What ``encryption.json`` holds."""

    salt: bytes
    n: int
    r: int
    p: int
    check: str

    @property
    def fingerprint(self) -> str:
        """Which encryption this is (kept in this device's database: a folder whose file changed is refused)."""
        return _b64(self.salt)

    def as_dict(self) -> dict:
        return {"format": 1, "cipher": CIPHER, "kdf": KDF, "salt": _b64(self.salt), "n": self.n, "r": self.r,
                "p": self.p, "check": self.check}


class Sealed:
    """The codec of an encrypted folder (``folder.Codec``)."""

    encrypted = True

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        self._aead = AESGCM(key)

    def seal(self, line: str, path: Path) -> str:
        return self.seal_bytes(line.encode("utf-8"), file_binding(path))

    def open(self, line: bytes, path: Path) -> bytes | None:
        return self.open_bytes(line, file_binding(path))

    def seal_bytes(self, data: bytes, binding: str) -> str:
        nonce = os.urandom(NONCE)
        return _b64(nonce + self._aead.encrypt(nonce, data, binding.encode("utf-8")))

    def open_bytes(self, token: bytes, binding: str) -> bytes | None:
        from cryptography.exceptions import InvalidTag
        try:
            raw = base64.urlsafe_b64decode(token.strip())
        except (binascii.Error, ValueError):
            return None
        if len(raw) < NONCE + 16:
            return None
        try:
            return self._aead.decrypt(raw[:NONCE], raw[NONCE:], binding.encode("utf-8"))
        except InvalidTag:
            return None


def encryption_path(folder: Path) -> Path:
    return folder / "monchat" / ENCRYPTION_FILE


def read_key_file(folder: Path) -> FolderKey | None:
    """The folder's ``encryption.json`` (None: the folder is not encrypted).

    Raises:
        InputError: the file is there but cannot be read (half-synced, damaged).
    """
    path = encryption_path(folder)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return FolderKey(base64.urlsafe_b64decode(data["salt"]), int(data["n"]), int(data["r"]), int(data["p"]),
                         str(data["check"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, binascii.Error) as exc:
        raise InputError(f"The sync folder's {path} cannot be read ({type(exc).__name__}).",
                         "If a sync tool is still copying it, wait and try again; else restore it from another "
                         "computer's copy of the folder.") from exc


def create_key_file(folder: Path, passphrase: str) -> tuple[FolderKey, Sealed]:
    """Encrypt a new folder: a random salt, the check value sealed with the key, written to ``encryption.json``."""
    register(passphrase)  # never in a log, an error or a report
    salt = os.urandom(16)
    codec = Sealed(_derive(passphrase, salt, COST["n"], COST["r"], COST["p"]))
    key = FolderKey(salt, COST["n"], COST["r"], COST["p"], codec.seal_bytes(CHECK, CHECK_BINDING))
    write_private(encryption_path(folder), json.dumps(key.as_dict(), indent=1, sort_keys=True) + "\n")
    return key, codec


def open_folder(key: FolderKey, passphrase: str) -> Sealed:
    """The codec of the folder, once the passphrase opens its check value.

    Raises:
        WrongPassphrase: it does not (exit 2; nothing was written).
    """
    if not (2 <= key.n <= 2 ** 18 and key.n & (key.n - 1) == 0 and 1 <= key.r <= 8 and 1 <= key.p <= 4):
        raise InputError("The sync folder's encryption.json asks for a key derivation monchat does not do.",
                         "Restore encryption.json from another computer's copy of the folder.")
    register(passphrase)
    codec = Sealed(_derive(passphrase, key.salt, key.n, key.r, key.p))
    if codec.open_bytes(key.check.encode("ascii", "replace"), CHECK_BINDING) != CHECK:
        raise WrongPassphrase("The passphrase does not open this encrypted sync folder. Nothing was read or written.",
                              f"Give the passphrase the folder was encrypted with (set {PASSPHRASE_ENV}, or run "
                              "`monchat sync setup FOLDER --name NAME --encrypt` to type it; Settings → Sync in "
                              "the window).")
    return codec


@lru_cache(maxsize=8)
def _derive(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    """scrypt, kept for the process's life (a sync every 5 minutes pays it once)."""
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii")


# ---- which codec a device uses: at setup, at each sync -----------------------------------------------------------
KNOWN = "crypto/folder"  # a sync_offsets row: Offset(1, fingerprint) encrypted, Offset(0, "") not
GONE = ("The sync folder was encrypted when this computer joined it, and its monchat/encryption.json is gone. "
        "Nothing was written: monchat does not write your words in clear to a folder meant to be encrypted.")


def known_fingerprint(sync: SyncStore) -> str | None:
    mark = sync.offset(KNOWN)
    return mark.tail if mark is not None and mark.offset == 1 else None


def remember_encryption(sync: SyncStore, key: FolderKey | None) -> None:
    sync.set_offset(KNOWN, Offset(1, key.fingerprint) if key else Offset(0, ""))


def setup_codec(sync: SyncStore, secrets: SecretStore, folder: Path, known: Device | None,
                passphrase: str | None) -> tuple[Codec, FolderKey | None, str | None]:
    """The codec ``monchat sync setup`` writes with, the folder's key and the passphrase that opened it: the
    folder's (``passphrase``, else ``MONCHAT_SYNC_PASSPHRASE``, else the one kept for this device), a new
    encryption (``passphrase`` on a folder no device writes to yet), or ``PLAIN``.

    Raises:
        InputError: an encrypted folder and no or a wrong passphrase; a passphrase for a folder that already
            holds unencrypted devices' files; this device's encrypted folder lost its ``encryption.json``.
    """
    key = read_key_file(folder)
    same = known is not None and Path(known.folder) == folder
    if key is None:
        if passphrase is None:
            if same and known_fingerprint(sync):
                raise InputError(GONE, "Restore monchat/encryption.json from another computer's copy of the "
                                       "folder, or choose a new folder with `--encrypt`.")
            return PLAIN, None, None
        if len(passphrase) < MIN_PASSPHRASE:
            raise InputError(f"A sync passphrase needs at least {MIN_PASSPHRASE} characters.",
                             "Choose a longer one (a few words are easy to remember and hard to guess).")
        devices = folder / "monchat" / "devices"
        if devices.is_dir() and any(p.is_dir() for p in devices.iterdir()):
            raise InputError("This sync folder already holds unencrypted files of monchat devices: it cannot be "
                             "encrypted now.",
                             "Choose a new empty folder for an encrypted sync (every computer then joins it with "
                             "the passphrase), or set up without --encrypt.")
        new, codec = create_key_file(folder, passphrase)
        return codec, new, passphrase
    if passphrase is None:
        passphrase = os.environ.get(PASSPHRASE_ENV) or (secrets.sync_passphrase(known.id) if same and known
                                                         else None)
    if not passphrase:
        raise InputError(f"The sync folder {folder} is encrypted: this computer needs its passphrase to join it.",
                         "Run `monchat sync setup FOLDER --name NAME --encrypt` and type the passphrase the "
                         f"folder was encrypted with (or set {PASSPHRASE_ENV}).")
    return open_folder(key, passphrase), key, passphrase


def folder_codec(sync: SyncStore, secrets: SecretStore, folder: Path, device: Device,
                 typed: str | None) -> Codec:
    """The codec a sync or ``sync status`` reads and writes with; raises ``InputError`` before anything is
    written when the folder and this device disagree or the passphrase is missing or wrong."""
    key = read_key_file(folder)
    known = known_fingerprint(sync)
    if key is None:
        if known:
            raise InputError(GONE, "Restore monchat/encryption.json from another computer's copy of the folder.")
        return PLAIN
    if known is None:
        raise InputError("The sync folder is encrypted, and this computer was set up to sync without encryption.",
                         "Join it with its passphrase: `monchat sync setup FOLDER --name NAME --encrypt`.")
    if known != key.fingerprint:
        raise InputError("The sync folder was encrypted again (with a new passphrase) since this computer joined it.",
                         "Join it again with the new passphrase: `monchat sync setup FOLDER --name NAME --encrypt`.")
    passphrase = typed or secrets.sync_passphrase(device.id)
    if not passphrase:
        raise InputError("The sync folder is encrypted, and this computer has no passphrase for it: the OS keyring "
                         f"does not hold it and {PASSPHRASE_ENV} is not set. Nothing was read or written.",
                         f"Set {PASSPHRASE_ENV}, or type it again: `monchat sync setup FOLDER --name NAME "
                         "--encrypt` (Settings → Sync in the window).")
    return open_folder(key, passphrase)


def keep_passphrase(secrets: SecretStore, device_id: str, passphrase: str) -> str:
    """Store it in the OS keyring; say where it lives now: "keyring", or "environment" / "session" when this
    machine has no keyring that keeps it (never in a file)."""
    try:
        secrets.set_sync_passphrase(device_id, passphrase)
        return "keyring"
    except KeyringUnavailable:
        return "environment" if os.environ.get(PASSPHRASE_ENV) == passphrase else "session"
