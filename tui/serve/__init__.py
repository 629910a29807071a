"""Provides ``planspiel serve``: a built-in SSH server that puts anyone with an SSH client at the table.

Each SSH session runs the unmodified game client as a child process on its own pseudo-terminal (:mod:`.child`),
with the account's own folder as its ``PLANSPIEL_HOME`` (saves, settings, Continue); accounts are bound to the
public key of their first login (:mod:`.accounts`); the limits on connections, sessions and children are in
:mod:`.limits`; the SSH side is :mod:`.server` (asyncssh).
"""
