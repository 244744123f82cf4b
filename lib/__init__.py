"""Helpers shared by several apps. lib imports no app: it is the ladder's lowest rung
(tests/config/test_owners.py)."""
