enum Tier { Gold, Silver }
() => Tier.Gold
