"""The security team's tools (SEC): audit log, moderation, and collusion signals ranked per pair of players."""
