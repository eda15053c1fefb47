"""The weights of Abluxxen's learned evaluations (bots/value.py), one `<family>.json` per
family (`abluxxen-multi`: 3 to 5 players, `abluxxen-duel`), written by scripts/train_value.py."""
