"""Research environments over the engine (optional extras): PettingZoo, Gymnasium, OpenSpiel.

Each is in its own module so that importing one needs only its own library:
``canasta.env.pettingzoo_env`` (extra ``rl``), ``canasta.env.gym_env`` (extra ``rl``),
``canasta.env.openspiel_game`` (extra ``bench``/``openspiel``). See docs/research.md.
"""
