"""The engine of international draughts and Turkish dama: a principal-variation search over the
games' own move generator (:mod:`.search`), a tapered evaluation term by term (:mod:`.evaluation`),
its Python front and analysis capability (:mod:`.engine`) and Texel tuning (:mod:`.tuning`).
"""
