"""The HACSE tests: the ruleset is built in (the package exports ``RULESET``), so nothing is registered here; a
fixture that registered it and unregistered it afterwards left later tests of the same worker without it."""
