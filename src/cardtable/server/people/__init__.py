"""Players with accounts: accounts, sessions and their cookie's origin check, passwords, passkeys, friends and presence, ratings and profiles."""
