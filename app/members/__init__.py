"""Members: accounts, passwords, sessions, roles, who is online."""
