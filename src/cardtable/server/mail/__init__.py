"""E-mail: sending messages through the operator's SMTP server (smtp.py)."""
