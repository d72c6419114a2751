"""Poker with OpenSpiel's rules: Kuhn poker (:mod:`.kuhn`) and Leduc hold'em (:mod:`.leduc`),
two-player games of chance (the deals) and hidden information (the other side's card), scored in
chips. :mod:`.cards` holds what they share."""
