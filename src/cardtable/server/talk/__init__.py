"""Table talk (chat.py, chat_store.py) and "your move" alerts by Web Push (push.py)."""
