"""mojifix.detect: statistical encoding detection with evidence and an honest "ambiguous".

``detect(data, *, tld=None, domain="file"|"web", candidates=None, max_bytes=None, prior=None) -> Detection``
(``prior``: the caller's log-odds in nats by encoding, e.g. ``convert``'s tree prior);
``Detector`` is the streaming form (``feed``/``close``); ``score_text(text) -> (language, score)`` rates
how much a string looks like real text (for comparing candidate decodings, e.g. in mojibake repair).
How it works: docs/detection.md. The model loads lazily on the first detection that needs it.
"""

from mojifix._callable import make_module_callable
from mojifix.detect.pipeline import Detector, detect
from mojifix.detect.result import Candidate, Detection, Evidence
from mojifix.detect.scoring import score_text

__all__ = ["Candidate", "Detection", "Detector", "Evidence", "detect", "score_text"]

# ``mojifix.detect`` is also the public function: keep the subpackage callable (see mojifix/_callable.py).
make_module_callable(__name__, detect)
