"""Words for temperature tiers (core/records/tiers.py), shared by the memory browser and the search's days."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.records.tiers import Tier


class TierWords:
    """The words; a class so that lupdate files them under the context "TierWords"."""

    @staticmethod
    def tr(text: str) -> str:
        return QCoreApplication.translate("TierWords", text)

    def name(self, tier: str | None) -> str:
        return {Tier.HOT: self.tr("often"), Tier.WARM: self.tr("now and then"),
                Tier.COLD: self.tr("not lately"), Tier.FROZEN: self.tr("long ago")}.get(tier or "", tier or "")


tier_words = TierWords()
