"""The terminal's texts: the shared message catalog (cardtable.i18n, en.json / de.json).

Kept as the terminal's import point: `t(lang, key, **params)`, `default_lang()`,
`check_lang()`. Every text lives in the catalog; nothing is worded here.
"""

from cardtable.i18n import LANGS, check_lang, default_lang, join, t

__all__ = ["LANGS", "check_lang", "default_lang", "join", "t"]
