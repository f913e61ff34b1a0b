"""Optional dependencies (the package extras): telling "not installed" from a broken import.

The USD, MuJoCo and Newton paths import their engine on demand and answer with "pip install
..." when it is missing. An ``ImportError`` raised for any other module on the way (one of ours,
or a dependency of the engine that is there but broken) is not a missing extra: saying "needs
usd-core" for it sends a user who has usd-core installed after the wrong fix.
"""
from __future__ import annotations

__all__ = ['is_missing']


def is_missing(err: ImportError, *packages: str) -> bool:
    """Whether ``err`` says that one of ``packages`` (top-level import names) is not installed."""
    return (err.name or '').partition('.')[0] in packages
