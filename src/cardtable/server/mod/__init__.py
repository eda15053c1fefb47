"""Moderation: roles, the audit log, bans and suspensions, blocks, reports."""
