"""HACSE (issue 19): not registered yet; see README.md."""
