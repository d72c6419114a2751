"""Learning from many games, AlphaZero-style: self-play guided by a policy-value net, a replay
buffer, training, gating of each new net against the last, and every checkpoint measured against
the exact solvers. Only this package imports PyTorch (``pip install 'zermelo[learn]'``); a trained
net exported to numpy plays without it (:mod:`zermelo.agents.az`)."""
