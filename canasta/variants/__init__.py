"""The variant registry: ``find_variant("classic")``."""

from __future__ import annotations

from canasta.errors import UnknownVariantError
from canasta.variants.american import American
from canasta.variants.base import Option, Variant
from canasta.variants.burraco import Burraco
from canasta.variants.classic import Classic
from canasta.variants.hand_and_foot import HandAndFoot, TriplePlay
from canasta.variants.mille import Mille
from canasta.variants.regional import REGIONAL_VARIANTS, Cuban, Uruguayan
from canasta.variants.samba import Bolivian, Brazilian, Chilean, Italian, Samba

VARIANTS: dict[str, type[Variant]] = {}
ALIASES: dict[str, str] = {"canasta": "classic"}


def register(cls: type[Variant]) -> type[Variant]:
    VARIANTS[cls.name] = cls
    return cls


def find_variant(name: str) -> type[Variant]:
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        return VARIANTS[key]
    except KeyError:
        raise UnknownVariantError(
            f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None  # registration order


register(Classic)
for _cls in REGIONAL_VARIANTS:
    register(_cls)
register(Mille)
register(Burraco)
register(Samba)
register(Bolivian)
register(Brazilian)
register(Chilean)
register(Italian)
register(American)
register(HandAndFoot)
register(TriplePlay)

__all__ = ["VARIANTS", "American", "Bolivian", "Brazilian", "Burraco", "Chilean", "Classic", "Cuban", "HandAndFoot",
           "Italian", "Mille", "Option", "Samba", "TriplePlay", "Uruguayan", "Variant", "find_variant",
           "register"]
