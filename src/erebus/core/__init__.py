"""Game-agnostic pieces shared by every rules engine: errors, the seeded RNG,
event and action protocols, and JSON helpers.  See ``shared/design/engine-api.md``."""

from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.core.protocols import ActionLike, GameModule, StateLike
from erebus.core.rng import Rng

__all__ = ["ActionLike", "Event", "GameModule", "IllegalAction", "Rng", "StateLike"]
