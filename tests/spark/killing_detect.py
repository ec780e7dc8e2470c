"""A detector that kills its own Python worker once, then is mojifix's detector (crash injection).

A file whose first line is ``KILL-ONCE <marker path>`` makes the process that examines it die by
SIGKILL the first time (the marker file records that it happened); every other call, and every call
after that, is :func:`mojifix.detect.detect` unchanged, so results equal the default detector's.
"""

from __future__ import annotations

import os
import signal
from typing import Any

from mojifix.detect import detect as _detect

TRIGGER = b"KILL-ONCE "


def detect(data: bytes, *args: Any, **kwargs: Any) -> Any:
    if data.startswith(TRIGGER):
        marker = data[len(TRIGGER) : data.index(b"\n")].decode()
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return _detect(data, *args, **kwargs)
