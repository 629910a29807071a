"""Provides the HACSE ruleset package (squads and vehicles with facing, 2d10, armour by location): work in progress.

The rules are those of the digest ``shared/rules/hacse.md``; ``README.md`` beside this module lists the layout, the
readings chosen where the digest is silent and what is not implemented yet. The package does **not** export
``RULESET`` yet: ``engine.rules.BUILTIN_RULESETS`` lists "hacse" and would register it, and the game must not
offer a ruleset a player cannot finish. Tests register :class:`~engine.rulesets.hacse.ruleset.Hacse` themselves
(``engine.register_ruleset(Hacse(), replace=True)``).
"""
