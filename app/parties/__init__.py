"""Parties: proposals ("predlog"), starting them, the archive and records."""
