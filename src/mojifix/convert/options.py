"""Options of a conversion run (one frozen object, passed to every worker)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mojifix.convert.decisions import Decisions

__all__ = ["DEFAULT_DETECTOR", "QUARANTINE_DIR", "Options"]

#: the detector, as "module:function" so worker processes can import it by name
DEFAULT_DETECTOR = "mojifix.detect:detect"
#: quarantined originals go under DST/<this>/ (issue 5)
QUARANTINE_DIR = "_quarantine"
#: default manifest file name, at the root of DST (or of the backup dir with --in-place)
MANIFEST_NAME = "mojifix-manifest.jsonl"
#: files larger than this are converted by the streaming path (bounded memory). 64 MiB keeps the
#: whole-file path (one read, one detector call over every byte) for every ordinary text file while
#: bounding memory to a few chunk sizes for logs and dumps.
STREAM_THRESHOLD = 64 * 1024 * 1024
#: streaming chunk size: large enough that per-chunk overhead is negligible, small enough for RSS
CHUNK_SIZE = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that changes how files are decided and written.

    ``prefer`` settles what the write gate would refuse (an ambiguous verdict, a confidence below
    0.9, a declaration naming another encoding): when one of the candidates, or the declared encoding,
    is (the same decoder as) a preferred encoding, it is used and still verified.
    """

    bom: str = "strip"  # strip | keep (for already-UTF-8 files; also whether UTF-8 output gets a BOM)
    prefer: tuple[str, ...] = ()
    decisions: Decisions | None = None  # --decisions FILE: a person's choices (implies resume)
    salvage: bool = False
    dry_run: bool = False
    accept_noncanonical: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    workers: int = 1
    resume: bool = False
    in_place: bool = False
    backup_dir: str | None = None
    names_encoding: str | None = None  # --convert-names ENC: decode non-UTF-8 names with ENC in DST
    fsync: bool = True
    stream_threshold: int = STREAM_THRESHOLD
    chunk_size: int = CHUNK_SIZE
    detector: str = DEFAULT_DETECTOR
    manifest: str | None = None
    keep_declarations: bool = False  # --keep-declarations: in-band declarations stay as the source has them
    tree_prior: bool = True  # --no-tree-prior: refused files are not re-decided with the run's votes

    def __post_init__(self) -> None:
        if self.bom not in ("strip", "keep"):
            raise ValueError(f"bom must be 'strip' or 'keep', not {self.bom!r}")
        if self.workers < 1:
            raise ValueError("workers must be >= 1")
        if self.in_place and not self.backup_dir:
            raise ValueError(
                "--in-place needs --backup-dir DIR (the original bytes of every rewritten file go there)"
            )
