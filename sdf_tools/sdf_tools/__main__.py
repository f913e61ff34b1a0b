"""Allow ``python -m sdf_tools``."""
from __future__ import annotations

import sys

from sdf_tools.cli import main

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (e.g. `| head`): not an error of ours.
    import os
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 0
sys.exit(code)
